package dev.baton.testkit;

import dev.baton.embedded.EmbeddedZooKeeper;

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
public final class EmbeddedZooKeeperExtension extends ClassScopedServer {
  private final EmbeddedZooKeeper server = new EmbeddedZooKeeper();

  @Override
  void startServer() {
    server.start();
  }

  @Override
  void stopServer() {
    server.stop();
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
