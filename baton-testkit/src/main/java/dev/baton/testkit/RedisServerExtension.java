package dev.baton.testkit;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

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
public final class RedisServerExtension implements BeforeAllCallback, AfterAllCallback {
  private final RedisServer server = new RedisServer();
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
