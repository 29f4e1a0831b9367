package dev.baton.zookeeper;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A number in a file that two JVMs update with a read, a pause and a write: an update lost to two holders at once
 * shows as a count below the number of updates.
 */
final class SharedCounter {
  private SharedCounter() {}

  static void increment(Path file, long pauseMillis) throws IOException, InterruptedException {
    long value = read(file);
    Thread.sleep(pauseMillis); // the window in which a second holder would read the same value
    Files.writeString(file, Long.toString(value + 1), StandardCharsets.UTF_8);
  }

  static long read(Path file) throws IOException {
    return Long.parseLong(Files.readString(file, StandardCharsets.UTF_8).strip());
  }
}
