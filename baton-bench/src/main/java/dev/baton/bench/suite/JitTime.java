package dev.baton.bench.suite;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;

/** How long this JVM's JIT has compiled so far, which tells whether a warm-up is over. */
final class JitTime {
  private static final CompilationMXBean JIT = ManagementFactory.getCompilationMXBean();

  private JitTime() {}

  /** The JIT's total compilation time so far in milliseconds; -1 if this JVM does not measure it. */
  static long millis() {
    return JIT != null && JIT.isCompilationTimeMonitoringSupported() ? JIT.getTotalCompilationTime() : -1;
  }
}
