package dev.baton.examples.report;

import java.time.Instant;

/** Where the report goes; here, the log. */
public interface ReportLog {

  /** {@code instance} wrote the report of the tick at {@code tick}. */
  void written(Instant tick, String instance);

  /** {@code instance} left this tick to another instance. */
  void skipped(String instance);
}
