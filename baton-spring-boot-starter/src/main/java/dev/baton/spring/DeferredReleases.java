package dev.baton.spring;

import dev.baton.Lease;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Releases the leases of {@link Locked#holdAtLeast()} later, on one daemon thread started by the first of them.
 * Once stopped it releases at once, where baton-shedlock's own leaves a lease to its hold timeout: a
 * {@code @Locked} lease may have none, and would otherwise be renewed until the client closes.
 */
final class DeferredReleases {
  private static final Logger log = LoggerFactory.getLogger(DeferredReleases.class);

  private final ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1, task -> {
    Thread thread = new Thread(task, "baton-locked-deferred-release");
    thread.setDaemon(true);
    return thread;
  });

  DeferredReleases() {
    timer.setRemoveOnCancelPolicy(true);
  }

  /** Closes {@code lease} after {@code nanos}; once stopped, releases at once instead. */
  void releaseAfter(Lease lease, long nanos) {
    try {
      timer.schedule(() -> release(lease), nanos, TimeUnit.NANOSECONDS);
    } catch (RejectedExecutionException stopped) {
      release(lease);
    }
  }

  private static void release(Lease lease) {
    try {
      lease.close();
      log.debug("Lock '{}' (owner {}) released after its holdAtLeast", lease.key(), lease.ownerId());
    } catch (RuntimeException e) {
      log.warn("Lock '{}' (owner {}) could not be released after its holdAtLeast", lease.key(), lease.ownerId(), e);
    }
  }

  /** Releases every lease still waiting, and stops the thread. */
  void close() {
    timer.shutdownNow().forEach(Runnable::run);
  }
}
