package dev.baton.spring.boot;

import java.util.concurrent.atomic.AtomicInteger;

/** How many calls run at once, shared by every instance of the application in one test. */
public final class Activity {
  private final AtomicInteger running = new AtomicInteger();
  private final AtomicInteger maxRunning = new AtomicInteger();

  void enter() {
    maxRunning.accumulateAndGet(running.incrementAndGet(), Math::max);
  }

  void leave() {
    running.decrementAndGet();
  }

  /** The most that ever ran at once. */
  int maxRunning() {
    return maxRunning.get();
  }
}
