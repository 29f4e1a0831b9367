package dev.baton.examples.report;

import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/** Writes the report to the log: one line per tick, from whichever instance wrote it. */
@Component
public class LoggingReportLog implements ReportLog {
  private static final Logger log = LoggerFactory.getLogger(ReportLog.class);

  @Override
  public void written(Instant tick, String instance) {
    log.info("Instance {} wrote the report of {}", instance, tick);
  }

  @Override
  public void skipped(String instance) {
    log.debug("Instance {} left this tick to another instance", instance);
  }
}
