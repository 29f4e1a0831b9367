package consumer.boot;

import dev.baton.spring.Locked;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * The job: every instance's scheduler fires it, the lock lets one instance at a time run it, the others skip the tick.
 * Each run appends a line to the file {@code report.runs} names: the instance, when the run began and when it ended.
 * (A real report runs nightly; this one runs all the time, so that a test sees many ticks.)
 */
@Component
public class NightlyReport {
  private final Path runs;
  private final String instance;
  private final Duration work;

  public NightlyReport(@Value("${report.runs}") Path runs, @Value("${report.instance}") String instance,
      @Value("${report.work}") Duration work) {
    this.runs = runs;
    this.instance = instance;
    this.work = work;
  }

  @Scheduled(fixedDelay = 50)
  @Locked(key = "'nightly-report'", waitTime = "0")
  public void run() {
    Instant start = Instant.now();
    try {
      Thread.sleep(work.toMillis()); // the report's work
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return;
    }
    Instant end = Instant.now();
    try {
      // One short write with O_APPEND: the lines of the instances sharing the file do not mix.
      Files.writeString(runs, instance + " " + start + " " + end + "\n", StandardOpenOption.CREATE,
          StandardOpenOption.APPEND);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
