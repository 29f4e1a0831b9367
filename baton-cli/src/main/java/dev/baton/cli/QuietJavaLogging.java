package dev.baton.cli;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.logging.LogManager;

/**
 * The configuration of the JDK's logging (java.util.logging) for a run without {@code --verbose}: nothing logged.
 * baton names it in the system property {@code java.util.logging.config.class} rather than setting the root level
 * itself, so that the JDK's logging starts, and costs the run its start-up (about 3 ms of CPU on Java 17: its
 * configuration and a service look-up over every jar), only where a library uses it (gRPC, on etcd): never on Redis.
 */
public final class QuietJavaLogging {
  /** Reads a configuration that turns every logger off; the JDK's LogManager calls this as it starts. */
  public QuietJavaLogging() throws IOException {
    LogManager.getLogManager().readConfiguration(
        new ByteArrayInputStream(".level=OFF\n".getBytes(StandardCharsets.ISO_8859_1)));
  }
}
