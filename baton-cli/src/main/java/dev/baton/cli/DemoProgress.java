package dev.baton.cli;

import java.io.PrintWriter;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The demo's live progress: a bar redrawn in place on a terminal, a plain line a second otherwise (a log,
 * a pipe, CI).
 */
final class DemoProgress implements AutoCloseable {
  private static final int WIDTH = 30;

  private final PrintWriter out;
  private final boolean terminal;
  private final AtomicLong total;
  private final long startAt;
  private final long seconds;
  private final ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(task -> {
    Thread thread = new Thread(task, "baton-demo-progress");
    thread.setDaemon(true);
    return thread;
  });
  private long lastTotal;
  private long lastAt;

  DemoProgress(PrintWriter out, boolean terminal, AtomicLong total, long startAt, long seconds) {
    this.out = out;
    this.terminal = terminal;
    this.total = total;
    this.startAt = startAt;
    this.seconds = seconds;
    this.lastAt = startAt;
    long every = terminal ? 200 : 1000;
    ticker.scheduleAtFixedRate(this::show, every, every, TimeUnit.MILLISECONDS);
  }

  private void show() {
    long now = System.nanoTime();
    long done = total.get();
    double rate = (done - lastTotal) / ((now - lastAt) / 1e9);
    lastTotal = done;
    lastAt = now;
    double elapsed = (now - startAt) / 1e9;
    if (terminal) {
      int filled = (int) Math.min(WIDTH, WIDTH * elapsed / seconds);
      out.printf("\r[%s%s] %4.1f s  %,8d acquisitions  %,6.0f/s ", "#".repeat(filled), ".".repeat(WIDTH - filled),
          elapsed, done, rate);
    } else {
      out.printf("%4.0f s  %,d acquisitions  %,.0f/s%n", elapsed, done, rate);
    }
    out.flush();
  }

  @Override
  public void close() {
    ticker.shutdownNow();
    if (terminal) {
      out.print("\r" + " ".repeat(WIDTH + 50) + "\r");
      out.flush();
    }
  }
}
