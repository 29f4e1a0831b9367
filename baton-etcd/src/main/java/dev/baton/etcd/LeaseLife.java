package dev.baton.etcd;

import dev.baton.BackendUnavailableException;
import io.etcd.jetcd.Lease;
import io.etcd.jetcd.options.LeaseOption;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * How long the client's lease is sure to live, learned from etcd's answer to a time-to-live question and
 * shared by every acquire and renewal of the client. A question sent at time {@code t} that etcd answers
 * with {@code s} seconds proves the lease lives until at least {@code t + s} (etcd rounds down), whoever asks
 * later; so one question serves all the locks of a client until they need more than it proved, instead of
 * one question per lock and renewal. A question already on its way is joined rather than asked again.
 */
final class LeaseLife {
  private final Lease leases;
  private Known known = new Known(0, false, 0, null);

  LeaseLife(Lease leases) {
    this.leases = leases;
  }

  /**
   * The {@link System#nanoTime()} until which lease {@code leaseId} is sure to live, as soon as that is known
   * to reach {@code neededUntil} or as soon as etcd has been asked again.
   */
  synchronized CompletableFuture<Long> aliveUntil(long leaseId, long neededUntil) {
    if (known.leaseId == leaseId) {
      if (known.proven && known.aliveUntil - neededUntil >= 0) {
        return CompletableFuture.completedFuture(known.aliveUntil);
      }
      if (known.asking != null) {
        return known.asking;
      }
    }
    long askedAt = System.nanoTime();
    CompletableFuture<Long> asking = leases.timeToLive(leaseId, LeaseOption.DEFAULT)
        .thenApply(answer -> askedAt + TimeUnit.SECONDS.toNanos(answer.getTTL()));
    Known before = known.leaseId == leaseId ? known : new Known(leaseId, false, 0, null);
    known = new Known(leaseId, before.proven, before.aliveUntil, asking);
    asking.whenComplete((until, error) -> answered(leaseId, asking, until));
    return asking;
  }

  /**
   * Throws unless the lease is sure to live until {@code neededUntil}, the end of the time the engine will
   * count a lock on it as held.
   */
  static void requireAlive(long aliveUntil, long neededUntil, String what) {
    if (aliveUntil - neededUntil < 0) {
      throw new BackendUnavailableException(what + ": the client's etcd lease is only sure to live "
          + Math.max(0, TimeUnit.NANOSECONDS.toMillis(aliveUntil - System.nanoTime())) + " ms more, less than the "
          + TimeUnit.NANOSECONDS.toMillis(neededUntil - System.nanoTime()) + " ms the lock needs: the keep-alive is behind");
    }
  }

  private synchronized void answered(long leaseId, CompletableFuture<Long> asking, Long until) {
    if (known.leaseId != leaseId || known.asking != asking) {
      return;
    }
    if (until == null) {
      known = new Known(leaseId, known.proven, known.aliveUntil, null);
    } else {
      known = new Known(leaseId, true, known.proven && known.aliveUntil - until > 0 ? known.aliveUntil : until, null);
    }
  }

  /**
   * What is known of one lease.
   *
   * @param proven whether an answer has come, and so {@code aliveUntil} means something
   * @param aliveUntil the latest nanoTime it is sure to live until
   * @param asking the question on its way to etcd, or null
   */
  private record Known(long leaseId, boolean proven, long aliveUntil, CompletableFuture<Long> asking) {}
}
