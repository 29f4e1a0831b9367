package dev.baton.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The command line that runs a command under {@code supervise.sh}, the shell between baton's JVM and the command
 * that ties the command to baton's life: when the JVM dies, however it dies, the command's whole process group
 * gets SIGTERM, then SIGKILL after a grace. The script's own comments say how.
 *
 * <p>It needs {@code setsid} and {@code setpriv} (util-linux 2.33 or later), {@code env} (GNU coreutils 8.31 or
 * later) and a POSIX {@code sh}: Linux, as every Debian or Ubuntu of the last years has them.
 */
final class Supervisor {
  /** The tools the supervisor is started with, as a message names them when one is missing. */
  static final String NEEDS = "setsid and setpriv (util-linux 2.33 or later)";

  private static final String SCRIPT = script();

  private Supervisor() {}

  /**
   * The command line that runs {@code command} under the supervisor, which gives it {@code grace} between
   * SIGTERM and SIGKILL if baton dies. It must be started by a thread that lives as long as baton (the thread
   * that runs {@code baton exec}): the kernel's parent-death signal follows the thread that started a process,
   * not the JVM.
   */
  static List<String> commandLine(List<String> command, Duration grace) {
    List<String> line = new ArrayList<>(List.of("setsid", "setpriv", "--pdeathsig", "USR1", "sh", "-c", SCRIPT,
        "baton-exec", Long.toString(ProcessHandle.current().pid()), seconds(grace)));
    line.addAll(command);
    return line;
  }

  /** {@code grace} in seconds, as sleep(1) reads them: {@code 10}, {@code 0.5}. */
  static String seconds(Duration grace) {
    long millis = grace.toMillis();
    if (millis % 1000 == 0) {
      return Long.toString(millis / 1000);
    }
    // The thousandths without their trailing zeros: 1.5, 0.25, 0.001 (no BigDecimal: see DurationConverter.parse).
    String thousandths = Long.toString(1000 + millis % 1000).substring(1);
    int end = thousandths.length();
    while (thousandths.charAt(end - 1) == '0') {
      end--;
    }
    return millis / 1000 + "." + thousandths.substring(0, end);
  }

  /** The script without its comment lines, which are for its readers: it shows whole in ps(1). */
  private static String script() {
    try (InputStream in = Supervisor.class.getResourceAsStream("supervise.sh")) {
      if (in == null) {
        throw new IllegalStateException("supervise.sh is missing from baton's jar; rebuild it.");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines()
          .filter(line -> !line.isBlank() && !line.strip().startsWith("#"))
          .collect(Collectors.joining("\n"));
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read supervise.sh from baton's jar", e);
    }
  }
}
