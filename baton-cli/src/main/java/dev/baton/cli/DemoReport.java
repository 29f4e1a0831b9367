package dev.baton.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** The demo's closing report, and its verdict: did the lock keep every update? */
final class DemoReport {
  private final List<DemoWorker> workers;
  private final DemoRegister register;
  private final double seconds;

  DemoReport(List<DemoWorker> workers, DemoRegister register, double seconds) {
    this.workers = workers;
    this.register = register;
    this.seconds = seconds;
  }

  long acquisitions() {
    return workers.stream().mapToLong(w -> w.waitNanos().size()).sum();
  }

  boolean tokensIncrease() {
    List<Long> tokens = register.tokens();
    for (int i = 1; i < tokens.size(); i++) {
      if (tokens.get(i) <= tokens.get(i - 1)) {
        return false;
      }
    }
    return true;
  }

  /** Whether mutual exclusion held: no update lost, tokens in order, and no worker failed. */
  boolean passed() {
    return register.counter() == acquisitions() && tokensIncrease() && workers.stream().allMatch(w -> w.failure() == null);
  }

  void print(PrintWriter out) {
    long acquisitions = acquisitions();
    out.printf("acquisitions    %,d in %.1f s (%,.0f/s)%n", acquisitions, seconds, acquisitions / seconds);
    StringBuilder perWorker = new StringBuilder();
    for (DemoWorker worker : workers) {
      perWorker.append(perWorker.length() == 0 ? "" : ", ").append(worker.name()).append(' ').append(worker.waitNanos().size());
    }
    out.printf("per worker      %s%n", perWorker);
    List<Long> waits = new ArrayList<>();
    workers.forEach(w -> waits.addAll(w.waitNanos()));
    Collections.sort(waits);
    if (!waits.isEmpty()) {
      out.printf("wait            p50 %s  p90 %s  p99 %s  max %s%n", millis(waits, 0.50), millis(waits, 0.90),
          millis(waits, 0.99), millis(waits, 1.0));
    }
    List<Long> tokens = register.tokens();
    if (!tokens.isEmpty()) {
      out.printf("fencing tokens  %,d in grant order, %s:%n", tokens.size(),
          tokensIncrease() ? "each larger than the one before" : "NOT IN ORDER");
      GrantOrder.lines(tokens).forEach(line -> out.printf("                %s%n", line));
    }
    out.printf("counter         %,d %s %,d acquisitions: %s%n", register.counter(),
        register.counter() == acquisitions ? "=" : "!=", acquisitions,
        register.counter() == acquisitions ? "no update lost, mutual exclusion held" : "UPDATES LOST, mutual exclusion broken");
    workers.stream().filter(w -> w.failure() != null)
        .forEach(w -> out.printf("%s stopped early: %s%n", w.name(), Printable.line(String.valueOf(w.failure().getMessage()))));
    out.flush();
  }

  private static String millis(List<Long> sorted, double quantile) {
    int index = (int) Math.min(sorted.size() - 1, Math.ceil(quantile * sorted.size()) - 1);
    return String.format("%.1f ms", sorted.get(Math.max(0, index)) / 1e6);
  }
}
