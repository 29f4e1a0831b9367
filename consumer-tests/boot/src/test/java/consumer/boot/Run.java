package consumer.boot;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;

/** One run of the report, as a line of the runs file says it: which instance ran it, from when to when. */
record Run(String instance, Instant start, Instant end) {

  /** The runs the file records, in the order they began; none if there is no file yet. */
  static List<Run> read(Path file) throws IOException {
    if (!Files.exists(file)) {
      return List.of();
    }
    return Files.readAllLines(file).stream()
        .map(line -> line.split(" "))
        .map(fields -> new Run(fields[0], Instant.parse(fields[1]), Instant.parse(fields[2])))
        .sorted(Comparator.comparing(Run::start))
        .toList();
  }

  /** Whether the run began after {@code instant}. */
  boolean startedAfter(Instant instant) {
    return start.isAfter(instant);
  }
}
