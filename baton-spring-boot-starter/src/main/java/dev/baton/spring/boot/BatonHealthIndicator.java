package dev.baton.spring.boot;

import dev.baton.LockClient;
import org.springframework.boot.actuate.health.AbstractHealthIndicator;
import org.springframework.boot.actuate.health.Health;

/**
 * Up while the store answers a status query within the client's command timeout; down, with the error, when it
 * does not or the client is closed. Details: the backend, its URI without its secrets, and the client id.
 */
public class BatonHealthIndicator extends AbstractHealthIndicator {
  /** The key whose status is asked for: nothing is written. */
  static final String PROBE_KEY = "baton-health-probe";

  private final LockClient client;
  private final String uri;

  /** @param uri the store's URI as shown to people (no password), or null if unknown */
  public BatonHealthIndicator(LockClient client, String uri) {
    super("Baton's lock store did not answer");
    this.client = client;
    this.uri = uri;
  }

  @Override
  protected void doHealthCheck(Health.Builder builder) {
    builder.withDetail("backend", client.backendName()).withDetail("clientId", client.clientId());
    if (uri != null) {
      builder.withDetail("uri", uri);
    }
    if (client.isClosed()) {
      builder.down().withDetail("error", "the LockClient is closed");
      return;
    }
    client.status(PROBE_KEY);
    builder.up();
  }
}
