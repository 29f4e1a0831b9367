package dev.baton.shedlock;

import dev.baton.Lease;
import java.time.Duration;
import java.util.Optional;
import net.javacrumbs.shedlock.core.AbstractSimpleLock;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.SimpleLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One ShedLock lock: a Baton lease whose release waits for {@code lockAtLeastFor}. Unlocks or extends once; an
 * extension is a new lock on the same lease, whose hold timeout moved.
 */
final class BatonSimpleLock extends AbstractSimpleLock {
  private static final Logger log = LoggerFactory.getLogger(BatonSimpleLock.class);

  private final Lease lease;
  private final DeferredReleases deferred;

  BatonSimpleLock(LockConfiguration configuration, Lease lease, DeferredReleases deferred) {
    super(configuration);
    this.lease = lease;
    this.deferred = deferred;
  }

  @Override
  protected Optional<SimpleLock> doExtend(LockConfiguration newConfiguration) {
    if (!lease.extendHold(BatonLockProvider.holdFor(newConfiguration))) {
      log.debug("Lock '{}' (owner {}) not extended: no longer held", lease.key(), lease.ownerId());
      return Optional.empty();
    }
    log.debug("Lock '{}' (owner {}) extended until {} at most", lease.key(), lease.ownerId(),
        newConfiguration.getLockAtMostUntil());
    return Optional.of(new BatonSimpleLock(newConfiguration, lease, deferred));
  }

  @Override
  protected void doUnlock() {
    Duration delay = BatonLockProvider.releaseDelay(lockConfiguration);
    if (delay.isZero()) {
      lease.close();
      log.debug("Lock '{}' (owner {}) released", lease.key(), lease.ownerId());
      return;
    }
    log.debug("Lock '{}' (owner {}) kept {} longer for lockAtLeastFor", lease.key(), lease.ownerId(), delay);
    deferred.releaseAfter(lease, delay);
  }
}
