package dev.baton.shedlock;

import dev.baton.Lease;
import java.time.Duration;
import net.javacrumbs.shedlock.core.AbstractSimpleLock;
import net.javacrumbs.shedlock.core.LockConfiguration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** One ShedLock lock: a Baton lease whose release waits for {@code lockAtLeastFor}. Unlocks once. */
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
