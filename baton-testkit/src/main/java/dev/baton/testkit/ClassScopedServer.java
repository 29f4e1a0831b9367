package dev.baton.testkit;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The life of a test server registered as a JUnit extension in a static field: started before the first
 * test of the class, stopped after its last. Nested test classes share the outer class's server: only the
 * class that started it stops it.
 */
abstract class ClassScopedServer implements BeforeAllCallback, AfterAllCallback {
  private volatile String startedBy;

  /** Starts the server and returns once it serves. */
  abstract void startServer();

  /** Stops the server and returns once it is gone. */
  abstract void stopServer();

  @Override
  public final void beforeAll(ExtensionContext context) {
    if (startedBy == null) {
      startServer();
      startedBy = context.getUniqueId();
    }
  }

  @Override
  public final void afterAll(ExtensionContext context) {
    if (context.getUniqueId().equals(startedBy)) {
      startedBy = null;
      stopServer();
    }
  }
}
