package dev.baton.testkit;

import dev.baton.servers.RedisServer;

/**
 * Runs a {@link RedisServer} for the tests of one class: started before the first test, stopped after the
 * last. Register it in a static field, so that it lives as long as the class:
 *
 * <pre>{@code
 * @RegisterExtension
 * static final RedisServerExtension redis = new RedisServerExtension();
 * }</pre>
 *
 * <p>Nested test classes share the outer class's server.
 */
public final class RedisServerExtension extends ClassScopedServer {
  private final RedisServer server = new RedisServer();

  @Override
  void startServer() {
    server.start();
  }

  @Override
  void stopServer() {
    server.stop();
  }

  /** The server, e.g. to {@link RedisServer#restart()} it. */
  public RedisServer server() {
    return server;
  }

  /** The server's address: {@code redis://127.0.0.1:PORT}. */
  public String uri() {
    return server.uri();
  }

  /** Runs one command against the server; see {@link RedisServer#command}. */
  public Object command(String... args) {
    return server.command(args);
  }
}
