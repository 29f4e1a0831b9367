package dev.baton.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.DistributedLock;
import dev.baton.DistributedReadWriteLock;
import dev.baton.Lease;
import dev.baton.LockClient;
import dev.baton.LockOptions;
import dev.baton.LockStatus;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Many readers or one writer, in order of arrival, with fencing tokens that grow across both sides. Part of the
 * {@link LockClientContract}: it runs as a nested class of the backend's test.
 */
abstract class ContractReadWriteLock extends ContractGroup {
  ContractReadWriteLock(LockClientContract contract) {
    super(contract);
  }

  @BeforeEach
  final void onlyWhereSharedEntriesAreTaken() {
    assumeSharedEntries();
  }

  @Test
  @Timeout(30)
  void readersOfSeveralClientsHoldTogetherAndStatusCountsThem() throws Exception {
    Lease first = newClient().readWriteLock(key).readLock().acquire(LONG_WAIT);
    Lease second = newClient().readWriteLock(key).readLock().acquire(LONG_WAIT);

    assertThat(first.isHeld()).isTrue();
    assertThat(second.fencingToken()).isGreaterThan(first.fencingToken());
    LockClient observer = newClient();
    LockStatus read = observer.status(key);
    assertThat(read.mode()).as("%s", read).contains(LockStatus.Mode.SHARED);
    assertThat(read.holders()).as("%s", read).isEqualTo(2);
    assertThat(read.fencingToken()).as("the oldest reader's").hasValue(first.fencingToken());
    assertThat(observer.list(key, 1)).singleElement().extracting(LockStatus::holders).isEqualTo(2);
    first.close();
    second.close();

    try (Lease writer = newClient().readWriteLock(key).writeLock().acquire(LONG_WAIT)) {
      LockStatus written = observer.status(key);
      assertThat(written.mode()).as("%s", written).contains(LockStatus.Mode.EXCLUSIVE);
      assertThat(written.holders()).isEqualTo(1);
      assertThat(written.permits()).isEmpty();
      assertThat(written.fencingToken()).hasValue(writer.fencingToken());
    }
    await().atMost(PROMPTLY).until(() -> entriesAtStore(key) == 0);
    assertThat(observer.status(key).mode()).isEmpty();
  }

  @Test
  @Timeout(30)
  void readersOfOneClientInManyThreadsHoldTogether() throws Exception {
    DistributedLock read = newClient().readWriteLock(key).readLock();
    int threads = 4;
    CyclicBarrier allHolding = new CyclicBarrier(threads);
    List<BackgroundCall<Long>> readers = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      readers.add(BackgroundCall.start("reader-" + t, () -> {
        try (Lease lease = read.acquire(LONG_WAIT)) {
          allHolding.await(PROMPTLY.toMillis(), TimeUnit.MILLISECONDS); // every reader holds at this point
          return lease.fencingToken();
        }
      }));
    }

    for (BackgroundCall<Long> reader : readers) {
      assertThat(reader.result(LONG_WAIT)).isPositive();
    }
    await().atMost(PROMPTLY).until(() -> entriesAtStore(key) == 0);
  }

  @Test
  @Timeout(30)
  void aWriterExcludesReadersAndWritersAndTheKeysMutex() throws Exception {
    DistributedReadWriteLock other = newClient().readWriteLock(key);
    try (Lease write = newClient().readWriteLock(key).writeLock().acquire(LONG_WAIT)) {
      assertThat(refuses(other.readLock())).as("a read while written").isTrue();
      assertThat(refuses(other.writeLock())).as("a write while written").isTrue();
      assertThat(refuses(newClient().lock(key))).as("the key's mutex while written").isTrue();
      assertThat(write.isHeld()).isTrue();
    }
    try (Lease read = other.readLock().acquire(LONG_WAIT)) {
      assertThat(refuses(newClient().lock(key))).as("the key's mutex while read").isTrue();
      assertThat(refuses(newClient().readWriteLock(key).writeLock())).as("a write while read").isTrue();
      assertThat(read.isHeld()).isTrue();
    }
  }

  /** Fair locks (the default): a non-fair writer keeps no place in line, so later readers may pass it. */
  @Test
  @Timeout(30)
  void aWaitingWriterHoldsBackTheReadersThatComeAfterIt() throws Exception {
    LockOptions fair = baseOptions().toBuilder().fair(true).build();
    Lease firstRead = newClient().readWriteLock(key, fair).readLock().acquire(LONG_WAIT);
    DistributedLock write = newClient().readWriteLock(key, fair).writeLock();
    BackgroundCall<Lease> writer = BackgroundCall.start("writer", () -> write.acquire(LONG_WAIT));
    writer.awaitBlocked();
    DistributedLock laterRead = newClient().readWriteLock(key, fair).readLock();

    assertThat(refuses(laterRead)).as("a reader that came after the waiting writer").isTrue();
    BackgroundCall<Lease> reader = BackgroundCall.start("later-reader", () -> laterRead.acquire(LONG_WAIT));
    reader.awaitBlocked();
    firstRead.close();

    Lease written = writer.result(PROMPTLY);
    assertThat(reader.isDone()).as("the later reader, while the writer holds").isFalse();
    written.close();
    try (Lease read = reader.result(PROMPTLY)) {
      assertThat(read.fencingToken()).isGreaterThan(written.fencingToken());
    }
  }

  @Test
  @Timeout(30)
  void aWritersTokenIsLargerThanEveryReadersBeforeIt() throws Exception {
    List<Long> tokens = new ArrayList<>();
    for (int round = 0; round < 3; round++) {
      Lease one = newClient().readWriteLock(key).readLock().acquire(LONG_WAIT);
      Lease two = newClient().readWriteLock(key).readLock().acquire(LONG_WAIT);
      tokens.add(Math.max(one.fencingToken(), two.fencingToken()));
      one.close();
      two.close();
      try (Lease write = newClient().readWriteLock(key).writeLock().acquire(LONG_WAIT)) {
        tokens.add(write.fencingToken());
      }
    }
    assertStrictlyIncreasing(tokens);
  }

  /** The Lock views: reentrant on each side, a writer may read (and keeps the key until both are released), a reader may not write. */
  @Test
  @Timeout(30)
  void theLockViewsAreReentrantAndDowngradeButNeverUpgrade() throws Exception {
    LockClient client = newClient();
    DistributedReadWriteLock rw = client.readWriteLock(key);
    DistributedLock othersRead = newClient().readWriteLock(key).readLock();

    rw.writeLock().lock();
    rw.writeLock().lock();
    rw.readLock().lock();
    rw.writeLock().unlock();
    rw.writeLock().unlock();
    assertThat(rw.readLock().isHeldByCurrentThread()).isTrue();
    assertThat(rw.writeLock().isHeldByCurrentThread()).isFalse();
    assertThat(refuses(othersRead)).as("another client's read while the downgraded read is held").isTrue();
    rw.readLock().unlock();
    assertThat(othersRead.tryLock()).as("another client's read once all is released").isTrue();
    othersRead.unlock();

    rw.readLock().lock();
    rw.readLock().lock();
    assertThatThrownBy(() -> rw.writeLock().tryLock(1, TimeUnit.SECONDS))
        .isInstanceOf(IllegalMonitorStateException.class).hasMessageContaining("read lock").hasMessageContaining(key);
    rw.readLock().unlock();
    rw.readLock().unlock();
    assertThat(rw.readLock().isHeldByCurrentThread()).isFalse();
    await().atMost(PROMPTLY).until(() -> entriesAtStore(key) == 0 && client.keysInUse() == 0);
  }

  /** Readers and writers of two clients at once: no writer meets anyone, readers do meet, no write is lost. */
  @Test
  @Timeout(60)
  void noWriterOverlapsAnyoneAndReadersOverlap() throws Exception {
    SharedHoldChecker checker = new SharedHoldChecker();
    int rounds = 20;
    List<BackgroundCall<Void>> workers = new ArrayList<>();
    for (int c = 0; c < 2; c++) {
      DistributedReadWriteLock rw = newClient().readWriteLock(key);
      for (int t = 0; t < 4; t++) {
        boolean writer = t == 0;
        boolean lockView = t % 2 == 1;
        workers.add(BackgroundCall.start("rw-" + c + "-" + t, () -> {
          for (int i = 0; i < rounds; i++) {
            DistributedLock side = writer ? rw.writeLock() : rw.readLock();
            Runnable section = writer ? checker::exclusiveSection : checker::sharedSection;
            if (lockView) {
              side.lock();
              try {
                section.run();
              } finally {
                side.unlock();
              }
            } else {
              try (Lease lease = side.acquire()) {
                section.run();
              }
            }
          }
          return null;
        }));
      }
    }
    awaitAll(workers, Duration.ofSeconds(50));

    assertThat(checker.violations()).as("sections that met a holder they exclude").isZero();
    assertThat(checker.count()).as("writes not lost").isEqualTo(2L * rounds);
    assertThat(checker.mostSharedAtOnce()).as("readers inside at once").isGreaterThan(1);
  }
}
