package dev.baton.etcd;

import dev.baton.BackendUnavailableException;
import io.etcd.jetcd.Lease;
import io.etcd.jetcd.lease.LeaseKeepAliveResponse;
import io.etcd.jetcd.options.LeaseOption;
import io.etcd.jetcd.support.CloseableClient;
import io.grpc.stub.StreamObserver;
import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The client's one etcd lease, kept alive by one stream for all its locks, and its replacement when etcd
 * no longer has it: then every entry bound to it is gone, and the backend is told.
 */
final class EtcdSession {
  private static final Logger log = LoggerFactory.getLogger(EtcdSession.class);
  private static final long RETRY_MILLIS = 200;

  private final Lease leases;
  private final Duration ttl;
  private final Duration timeout;
  private final LongConsumer onExpired;
  private final ScheduledExecutorService scheduler;
  private volatile long leaseId;
  private volatile CloseableClient keepAlive;
  private volatile boolean closed;

  private EtcdSession(Lease leases, Duration ttl, Duration timeout, LongConsumer onExpired,
      ScheduledExecutorService scheduler) {
    this.leases = leases;
    this.scheduler = scheduler;
    this.ttl = ttl;
    this.timeout = timeout;
    this.onExpired = onExpired;
  }

  /** Grants the lease and starts keeping it alive, checking on it on {@code scheduler}. */
  static EtcdSession open(Lease leases, Duration ttl, Duration timeout, LongConsumer onExpired,
      ScheduledExecutorService scheduler) {
    EtcdSession session = new EtcdSession(leases, ttl, timeout, onExpired, scheduler);
    session.grant();
    return session;
  }

  /** The lease new entries are bound to. */
  long leaseId() {
    long id = leaseId;
    if (id == 0) {
      throw new BackendUnavailableException("The client has no etcd lease right now; a new one is being granted.");
    }
    return id;
  }

  Duration ttl() {
    return ttl;
  }

  private void grant() {
    long id = EtcdCalls.await(leases.grant(ttl.toSeconds()), timeout, "Granting a lease").getID();
    leaseId = id;
    keepAlive = leases.keepAlive(id, keepAliveObserver(id));
  }

  /** The keep-alive stream ended: find out whether etcd still has the lease. */
  private void check(long id) {
    if (closed || id != leaseId) {
      return;
    }
    long left;
    try {
      left = EtcdCalls.await(leases.timeToLive(id, LeaseOption.DEFAULT), timeout, "Checking the lease").getTTL();
    } catch (RuntimeException e) {
      schedule(() -> check(id), RETRY_MILLIS);
      return;
    }
    if (left > 0) {
      closeKeepAlive();
      keepAlive = leases.keepAlive(id, keepAliveObserver(id));
      return;
    }
    expired(id);
  }

  /** When the stream ends, for any reason, checks the lease a moment later. */
  private StreamObserver<LeaseKeepAliveResponse> keepAliveObserver(long id) {
    return new StreamObserver<>() {
      @Override
      public void onNext(LeaseKeepAliveResponse response) {
        // Kept alive.
      }

      @Override
      public void onError(Throwable error) {
        schedule(() -> check(id), RETRY_MILLIS);
      }

      @Override
      public void onCompleted() {
        schedule(() -> check(id), RETRY_MILLIS);
      }
    };
  }

  /**
   * A call bound to lease {@code id} was refused because etcd does not know it (a restarted member that lost its
   * data, a lease revoked behind our back): checks it now rather than when the keep-alive stream next says so.
   */
  void suspect(long id) {
    schedule(() -> check(id), 0);
  }

  /** etcd no longer has lease {@code id}: its entries are gone. Reports it once and grants a new lease. */
  void expired(long id) {
    if (closed || id != leaseId) {
      return;
    }
    leaseId = 0;
    closeKeepAlive();
    log.warn("The etcd lease {} expired; its locks are lost, a new lease is granted", Long.toHexString(id));
    onExpired.accept(id);
    regrant();
  }

  private void regrant() {
    if (closed) {
      return;
    }
    try {
      grant();
    } catch (RuntimeException e) {
      schedule(this::regrant, RETRY_MILLIS);
    }
  }

  private void schedule(Runnable task, long delayMillis) {
    try {
      scheduler.schedule(task, delayMillis, TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException stopped) {
      log.debug("Lease upkeep stopped");
    }
  }

  /** Revokes the lease, which deletes any entry still bound to it, and stops its upkeep. */
  void close() {
    closed = true;
    closeKeepAlive();
    long id = leaseId;
    if (id != 0) {
      try {
        EtcdCalls.await(leases.revoke(id), timeout, "Revoking the lease");
      } catch (RuntimeException e) {
        log.debug("Could not revoke lease {}; it expires by itself", Long.toHexString(id), e);
      }
    }
  }

  private void closeKeepAlive() {
    CloseableClient stream = keepAlive;
    if (stream != null) {
      stream.close();
    }
  }
}
