package dev.baton.testkit;

import dev.baton.servers.PostgresServer;

/**
 * Runs a {@link PostgresServer} for the tests of one class: started before the first test, stopped (and its data
 * deleted) after the last. Register it in a static field, so that it lives as long as the class:
 *
 * <pre>{@code
 * @RegisterExtension
 * static final PostgresServerExtension postgres = new PostgresServerExtension();
 * }</pre>
 *
 * <p>Nested test classes share the outer class's server.
 */
public final class PostgresServerExtension extends ClassScopedServer {
  private final PostgresServer server = new PostgresServer();

  @Override
  void startServer() {
    server.start();
  }

  @Override
  void stopServer() {
    server.stop();
  }

  /** The server, e.g. for its {@link PostgresServer#pid()} or its log. */
  public PostgresServer server() {
    return server;
  }

  /** The address with the test user and password: {@code postgresql://baton:PASSWORD@127.0.0.1:PORT/postgres}. */
  public String uri() {
    return server.uri();
  }

  /** The JDBC URL, without user or password: {@code jdbc:postgresql://127.0.0.1:PORT/postgres}. */
  public String jdbcUrl() {
    return server.jdbcUrl();
  }
}
