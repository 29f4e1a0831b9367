package dev.baton.spring.boot;

import dev.baton.LockClient;
import org.springframework.boot.actuate.health.AbstractHealthIndicator;
import org.springframework.boot.actuate.health.Health;

/**
 * Up while the store answers a status query within the client's command timeout; down, with the error, when it
 * does not or the client is closed. Details: the backend, its URI without its secrets, what chose the store
 * ({@code baton.backend}, the application's DataSource or its own LockClient bean), and the client id.
 */
public class BatonHealthIndicator extends AbstractHealthIndicator {
  /** The key whose status is asked for: nothing is written. */
  static final String PROBE_KEY = "baton-health-probe";

  private final LockClient client;
  private final String uri;
  private final String chosenBy;

  /**
   * @param uri the store's URI as shown to people (no password), or null if unknown
   * @param chosenBy what chose the store, such as {@code baton.backend}
   */
  public BatonHealthIndicator(LockClient client, String uri, String chosenBy) {
    super("Baton's lock store did not answer");
    this.client = client;
    this.uri = uri;
    this.chosenBy = chosenBy;
  }

  @Override
  protected void doHealthCheck(Health.Builder builder) {
    builder.withDetail("backend", client.backendName()).withDetail("clientId", client.clientId())
        .withDetail("chosenBy", chosenBy);
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
