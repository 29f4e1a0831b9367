package dev.baton.torture;

import dev.baton.torture.History.Kind;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A worker's {@link History} file, written by any of its threads (the one that holds, and the client's event thread
 * that tells of losses and elections), one flushed line per event.
 */
final class WorkerHistory {
  private final PrintWriter out;

  WorkerHistory(Path file) throws IOException {
    out = new PrintWriter(Files.newBufferedWriter(file, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
        StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE), true);
  }

  /** Records an event that happens now. */
  void record(Kind kind, long token, String detail) {
    record(System.nanoTime(), kind, token, detail);
  }

  /** Records an event that happened at {@code nanos} ({@link System#nanoTime()} on this host). */
  synchronized void record(long nanos, Kind kind, long token, String detail) {
    out.println(History.line(nanos, kind, token, detail));
  }
}
