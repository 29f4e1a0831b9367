package dev.baton.testkit;

/**
 * Runs an {@link EtcdServer} for the tests of one class: started before the first test, stopped (and its data
 * deleted) after the last. Register it in a static field, so that it lives as long as the class:
 *
 * <pre>{@code
 * @RegisterExtension
 * static final EtcdServerExtension etcd = new EtcdServerExtension();
 * }</pre>
 *
 * <p>Nested test classes share the outer class's server.
 */
public final class EtcdServerExtension extends ClassScopedServer {
  private final EtcdServer server = new EtcdServer();

  @Override
  void startServer() {
    server.start();
  }

  @Override
  void stopServer() {
    server.stop();
  }

  /** The server, e.g. to {@link EtcdServer#restart()} or {@link EtcdServer#kill()} it. */
  public EtcdServer server() {
    return server;
  }

  /** The server's address for an etcd client: {@code http://127.0.0.1:PORT}. */
  public String endpoint() {
    return server.endpoint();
  }
}
