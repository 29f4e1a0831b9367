package dev.baton.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.DistributedLock;
import dev.baton.Lease;
import dev.baton.LockTimeoutException;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The {@code Lock} view is reentrant per thread; a lease is not. Part of the {@link LockClientContract}: it runs as a nested class of the backend's test.
 */
abstract class ContractReentrancy extends ContractGroup {
  ContractReentrancy(LockClientContract contract) {
    super(contract);
  }

  @Test
  @Timeout(30)
  void lockViewIsReentrant() {
    DistributedLock lock = newClient().lock(key);
    DistributedLock other = newClient().lock(key);
    lock.lock();
    lock.lock();
    lock.unlock();
    assertThat(lock.isHeldByCurrentThread()).isTrue();
    assertThat(other.tryLock()).as("another client's tryLock while one hold remains").isFalse();
    lock.unlock();
    assertThat(lock.isHeldByCurrentThread()).isFalse();
    assertThat(other.tryLock()).as("another client's tryLock after the last unlock").isTrue();
    other.unlock();
  }

  @Test
  @Timeout(30)
  void unlockByAThreadThatDoesNotHoldTheLockThrows() throws Exception {
    DistributedLock lock = newClient().lock(key);
    assertThatThrownBy(lock::unlock).isInstanceOf(IllegalMonitorStateException.class);
    lock.lock();
    try {
      Throwable thrown = BackgroundCall.start("stranger", () -> {
        lock.unlock();
        return null;
      }).failure(PROMPTLY);
      assertThat(thrown).isInstanceOf(IllegalMonitorStateException.class);
      assertThat(lock.isHeldByCurrentThread()).isTrue();
    } finally {
      lock.unlock();
    }
  }

  @Test
  @Timeout(30)
  void leaseIsNotReentrant() throws Exception {
    DistributedLock lock = newClient().lock(key);
    try (Lease first = lock.acquire(LONG_WAIT)) {
      assertThatThrownBy(() -> lock.acquire(Duration.ofMillis(200))).isInstanceOf(LockTimeoutException.class);
      assertThat(first.isHeld()).isTrue();
    }
  }
}
