package dev.baton.shedlock;

import dev.baton.Lease;
import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Releases leases later, on one daemon thread that starts with the first deferred release. */
final class DeferredReleases {
  private static final Logger log = LoggerFactory.getLogger(DeferredReleases.class);
  private static final AtomicInteger THREADS = new AtomicInteger();

  private final ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1, task -> {
    Thread thread = new Thread(task, "baton-shedlock-deferred-release-" + THREADS.incrementAndGet());
    thread.setDaemon(true);
    return thread;
  });

  DeferredReleases() {
    timer.setRemoveOnCancelPolicy(true);
  }

  /** Closes {@code lease} after {@code delay}; if the timer was stopped, the lease's hold timeout ends it. */
  void releaseAfter(Lease lease, Duration delay) {
    try {
      timer.schedule(() -> release(lease), delay.toNanos(), TimeUnit.NANOSECONDS);
    } catch (RejectedExecutionException closed) {
      log.debug("Lock '{}' (owner {}) left to its hold timeout: the provider is closed", lease.key(), lease.ownerId());
    }
  }

  private static void release(Lease lease) {
    try {
      lease.close();
      log.debug("Lock '{}' (owner {}) released after lockAtLeastFor", lease.key(), lease.ownerId());
    } catch (RuntimeException e) {
      log.warn("Lock '{}' (owner {}) could not be released after lockAtLeastFor; its hold timeout will free it",
          lease.key(), lease.ownerId(), e);
    }
  }

  void close() {
    timer.shutdownNow();
  }
}
