package dev.baton.bench.suite;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * The CPU time a database server has used, from {@code /proc}: its process and, for PostgreSQL, whose backends are
 * processes of their own, every child of it. Linux only; clock ticks of 10 ms, so measure over a second or more.
 */
final class ServerCpu {
  /** {@code USER_HZ}, the unit of {@code /proc/PID/stat}'s times, on every Linux the suite runs on. */
  private static final long NANOS_PER_TICK = 10_000_000L;

  private ServerCpu() {}

  /** The user and system time of process {@code pid} and of its children now alive, in nanoseconds. */
  static long nanos(long pid) throws IOException {
    long ticks = 0;
    try (Stream<Path> processes = Files.list(Path.of("/proc"))) {
      for (Path process : processes.filter(p -> p.getFileName().toString().matches("\\d+")).toList()) {
        String[] fields = stat(process);
        if (fields.length > 14 && (process.getFileName().toString().equals(Long.toString(pid))
            || fields[3].equals(Long.toString(pid)))) {
          ticks += Long.parseLong(fields[13]) + Long.parseLong(fields[14]);
        }
      }
    }
    return ticks * NANOS_PER_TICK;
  }

  /** The fields of {@code /proc/PID/stat}, the command's name (which may hold spaces) taken out; empty if gone. */
  private static String[] stat(Path process) {
    try {
      String line = Files.readString(process.resolve("stat"));
      int end = line.lastIndexOf(')');
      return ("pid comm " + line.substring(end + 2)).split(" ");
    } catch (IOException e) {
      return new String[0]; // it exited meanwhile
    }
  }
}
