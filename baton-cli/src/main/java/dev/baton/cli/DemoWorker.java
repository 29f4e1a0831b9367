package dev.baton.cli;

import dev.baton.DistributedLock;
import dev.baton.Lease;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/** One of the demo's contenders: acquire, update the register, release, until the time is up. */
final class DemoWorker implements Runnable {
  private static final Duration WAIT = Duration.ofSeconds(30);

  private final String name;
  private final DistributedLock lock;
  private final DemoRegister register;
  private final AtomicLong total;
  private final long endAt;
  private final List<Long> waitNanos = new ArrayList<>();
  private volatile RuntimeException failure;

  DemoWorker(String name, DistributedLock lock, DemoRegister register, AtomicLong total, long endAt) {
    this.name = name;
    this.lock = lock;
    this.register = register;
    this.total = total;
    this.endAt = endAt;
  }

  @Override
  public void run() {
    try {
      while (System.nanoTime() - endAt < 0) {
        long asked = System.nanoTime();
        try (Lease lease = lock.acquire(WAIT)) {
          waitNanos.add(System.nanoTime() - asked);
          register.update(lease.fencingToken());
          total.incrementAndGet();
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      failure = e;
    }
  }

  String name() {
    return name;
  }

  /** Read after the worker has stopped. */
  List<Long> waitNanos() {
    return waitNanos;
  }

  /** What stopped the worker early, if anything. */
  RuntimeException failure() {
    return failure;
  }
}
