package dev.baton.examples.report;

import dev.baton.spring.Locked;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * The job: every instance's scheduler fires it at each tick, and the first to take the lock writes the report.
 * The others find the lock taken ({@code waitTime = "0"}) and skip. {@code holdAtLeast} keeps the lock for a
 * moment after a quick run, so that an instance whose scheduler fires a little later does not run the same tick
 * again; keep the instances' clocks in sync (NTP) to well within it.
 */
@Component
public class DailyReport {
  private final ReportLog log;
  private final String instance;

  public DailyReport(ReportLog log, @Value("${report.instance:${HOSTNAME:local}}") String instance) {
    this.log = log;
    this.instance = instance;
  }

  /** Writes the report of this tick. */
  @Scheduled(cron = "${report.cron:*/2 * * * * *}")
  @Locked(key = "'daily-report'", waitTime = "0", holdAtLeast = "${report.hold-at-least:1s}", fallback = "skip")
  public void write() {
    log.written(Instant.now().truncatedTo(ChronoUnit.SECONDS), instance);
  }

  /**
   * Another instance writes this tick's report. Without this fallback the scheduled job would skip the tick quietly
   * all the same; it is here so that the demo shows which instance skipped.
   */
  public void skip() {
    log.skipped(instance);
  }
}
