package dev.baton.torture;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * What one worker saw, one event per line, written as it happens (flushed, so that a SIGKILL loses at most
 * the line being written): {@code nanoTime EVENT token detail}. Times come from {@link System#nanoTime()},
 * which on Linux reads the host's monotonic clock: comparable between the processes of one host.
 */
final class History {
  /**
   * The kinds of event a worker records. {@code ASK}'s detail says which side it asks for ({@link #SHARED} or
   * {@link #EXCLUSIVE}); a leader's {@code GRANT} is its election, {@code LOST} its revocation.
   */
  enum Kind { ASK, GRANT, READ, READ_REJECTED, WRITE_OK, WRITE_REJECTED, RELEASE, LOST, TIMEOUT, ERROR }

  /** The detail of an {@code ASK} for a read lock or a permit: held beside others. */
  static final String SHARED = "shared";
  /** The detail of an {@code ASK} for a lock, a write lock or a term: held alone. */
  static final String EXCLUSIVE = "exclusive";

  /** One recorded event. */
  record Event(long nanos, Kind kind, long token, String detail) {}

  private History() {}

  static String line(long nanos, Kind kind, long token, String detail) {
    return nanos + " " + kind + " " + token + " " + detail.replace('\n', ' ');
  }

  /** Reads a worker's file, skipping a last line cut short by a kill. */
  static List<Event> read(Path file) {
    if (!Files.exists(file)) {
      return List.of();
    }
    try {
      return Files.readAllLines(file).stream()
          .map(line -> line.split(" ", 4))
          .filter(words -> words.length == 4 && isKind(words[1]))
          .map(words -> new Event(Long.parseLong(words[0]), Kind.valueOf(words[1]), Long.parseLong(words[2]), words[3]))
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read the history " + file, e);
    }
  }

  private static boolean isKind(String word) {
    for (Kind kind : Kind.values()) {
      if (kind.name().equals(word)) {
        return true;
      }
    }
    return false;
  }
}
