package dev.baton.embedded.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * Temporary working directories of embedded and test servers: created empty, deleted with everything in them. Baton's
 * own plumbing, shared by {@code baton-embedded}, {@code baton-servers} and {@code baton-torture}: not API, and it may
 * change in any release.
 */
public final class WorkDirs {

  private WorkDirs() {}

  /**
   * Creates a new empty directory under the system's temporary directory.
   *
   * @param prefix the start of its name, e.g. {@code baton-redis-}
   * @param owner what it is for, for the error message, e.g. {@code redis-server}
   */
  public static Path create(String prefix, String owner) {
    try {
      return Files.createTempDirectory(prefix);
    } catch (IOException e) {
      throw new UncheckedIOException("Could not create a working directory for " + owner + ": " + e.getMessage(), e);
    }
  }

  /** Creates {@code dir} and its parents if they are missing, and returns it. */
  public static Path createIfMissing(Path dir, String owner) {
    try {
      return Files.createDirectories(dir);
    } catch (IOException e) {
      throw new UncheckedIOException("Could not create " + owner + "'s data directory " + dir + ": " + e.getMessage(), e);
    }
  }

  /** Deletes {@code dir} and everything in it; does nothing if it is already gone. */
  public static void delete(Path dir, String owner) {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(file);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Could not delete " + owner + "'s working directory " + dir, e);
    }
  }
}
