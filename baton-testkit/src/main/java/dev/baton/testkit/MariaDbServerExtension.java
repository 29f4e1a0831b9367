package dev.baton.testkit;

import dev.baton.servers.MariaDbServer;

/**
 * Runs a {@link MariaDbServer} for the tests of one class: started before the first test, stopped (and its data
 * deleted) after the last. Register it in a static field, so that it lives as long as the class:
 *
 * <pre>{@code
 * @RegisterExtension
 * static final MariaDbServerExtension mariadb = new MariaDbServerExtension();
 * }</pre>
 *
 * <p>Nested test classes share the outer class's server.
 */
public final class MariaDbServerExtension extends ClassScopedServer {
  private final MariaDbServer server = new MariaDbServer();

  @Override
  void startServer() {
    server.start();
  }

  @Override
  void stopServer() {
    server.stop();
  }

  /** The server, e.g. for its {@link MariaDbServer#pid()} or its log. */
  public MariaDbServer server() {
    return server;
  }

  /** The address with the test user and password: {@code mariadb://baton:PASSWORD@127.0.0.1:PORT/baton}. */
  public String uri() {
    return server.uri();
  }

  /** The JDBC URL, without user or password: {@code jdbc:mariadb://127.0.0.1:PORT/baton}. */
  public String jdbcUrl() {
    return server.jdbcUrl();
  }
}
