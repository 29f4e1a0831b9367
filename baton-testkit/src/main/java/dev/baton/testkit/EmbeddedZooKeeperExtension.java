package dev.baton.testkit;

import dev.baton.embedded.EmbeddedZooKeeper;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Runs an {@link EmbeddedZooKeeper} for the tests of one class: started before the first test, stopped after
 * the last. Register it in a static field, so that it lives as long as the class:
 *
 * <pre>{@code
 * @RegisterExtension
 * static final EmbeddedZooKeeperExtension zooKeeper = new EmbeddedZooKeeperExtension();
 * }</pre>
 *
 * <p>Nested test classes share the outer class's server.
 */
public final class EmbeddedZooKeeperExtension implements BeforeAllCallback, AfterAllCallback {
  private final EmbeddedZooKeeper server = new EmbeddedZooKeeper();
  private volatile String startedBy;

  @Override
  public void beforeAll(ExtensionContext context) {
    if (!server.isRunning()) {
      server.start();
      startedBy = context.getUniqueId();
    }
  }

  @Override
  public void afterAll(ExtensionContext context) {
    if (context.getUniqueId().equals(startedBy)) {
      startedBy = null;
      server.stop();
    }
  }

  /** The server, e.g. to {@link EmbeddedZooKeeper#restart()} it or {@link EmbeddedZooKeeper#expireSession expire} a session. */
  public EmbeddedZooKeeper server() {
    return server;
  }

  /** The server's address for a ZooKeeper client: {@code 127.0.0.1:PORT}. */
  public String connectString() {
    return server.connectString();
  }
}
