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
import java.util.Optional;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Many readers or one writer, in order of arrival, with fencing tokens that grow across both sides. Part of the
 * {@link LockClientContract}: it runs as a nested class of the backend's test.
 */
abstract class ContractReadWriteLock extends ContractGroup {
  /** How long each read of a stream of readers lasts. */
  private static final Duration READ_TIME = Duration.ofMillis(300);
  /**
   * How long a writer among a stream of readers may wait: the reads it finds under way and the joins of their
   * clients' entries (64 reads of 300 ms by four threads: about 5 s), with slack for a loaded machine.
   */
  private static final Duration WRITER_AMONG_READERS = Duration.ofSeconds(30);

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

  /** A writer that waits, fair or not, holds back the readers that come after it: fairness is about writers racing. */
  @Test
  @Timeout(60)
  void aWaitingWriterHoldsBackTheReadersThatComeAfterIt() throws Exception {
    for (boolean fairWriter : List.of(true, false)) {
      String side = fairWriter ? "a fair writer" : "a non-fair writer";
      LockOptions writing = baseOptions().toBuilder().fair(fairWriter).build();
      Lease firstRead = newClient().readWriteLock(key).readLock().acquire(LONG_WAIT);
      DistributedLock write = newClient().readWriteLock(key, writing).writeLock();
      BackgroundCall<Lease> writer = BackgroundCall.start("writer", () -> write.acquire(LONG_WAIT));
      writer.awaitBlocked();
      DistributedLock laterRead = newClient().readWriteLock(key).readLock();

      assertThat(refuses(laterRead)).as("a reader that came after %s that waits", side).isTrue();
      BackgroundCall<Lease> reader = BackgroundCall.start("later-reader", () -> laterRead.acquire(LONG_WAIT));
      reader.awaitBlocked();
      firstRead.close();

      Lease written = writer.result(PROMPTLY);
      assertThat(reader.isDone()).as("the later reader, while %s holds", side).isFalse();
      written.close();
      try (Lease read = reader.result(PROMPTLY)) {
        assertThat(read.fencingToken()).isGreaterThan(written.fencingToken());
      }
    }
  }

  /**
   * What a waiting writer leaves to hold back later readers lives by the writer's own bound, never by what it waits
   * for: once the writer crashes, a reader that comes after it gets in beside the long-lived reader it waited for
   * within the crash bound of the writer's ttl, and the key is free for everyone once the readers have gone.
   */
  @Test
  @Timeout(90)
  void aCrashedWaitingWriterHoldsBackLaterReadersOnlyForItsOwnBound() throws Exception {
    Duration longTtl = Duration.ofSeconds(60);
    Duration wait = crashFreeBound(SHORT_TTL).plus(CRASH_FREE_SLACK).plus(LONG_WAIT);
    for (boolean fairWriter : List.of(true, false)) {
      LockClient firstReader = newClient();
      DistributedLock firstRead = firstReader.readWriteLock(key, baseOptions().withTtl(longTtl)).readLock();
      Lease held = firstRead.acquire(LONG_WAIT);
      LockClient crashing = newCrashableClient();
      DistributedLock write = crashing.readWriteLock(key, waitingWithTtl(SHORT_TTL).toBuilder().fair(fairWriter).build())
          .writeLock();
      BackgroundCall.start("crashing-writer", () -> write.acquire(LONG_WAIT)).awaitBlocked();
      DistributedLock laterRead = newClient().readWriteLock(key, baseOptions().withTtl(SHORT_TTL)).readLock();
      assertThat(refuses(laterRead)).as("a reader after the waiting writer, fair: %s", fairWriter).isTrue();

      Crash crashed = crashingNow();
      crash(crashing);
      try (Lease read = laterRead.acquire(wait)) {
        assertFreedWithinBound(crashed, SHORT_TTL);
        assertThat(held.isHeld()).as("the first reader, beside the later one").isTrue();
      }
      held.close();
      Optional<Lease> again = firstRead.tryAcquire();
      assertThat(again).as("the first reader's next read, with nobody holding the key").isPresent();
      again.get().close();
    }
  }

  /** A writer that waits longer than its ttl keeps holding back later readers for as long as it waits. */
  @Test
  @Timeout(60)
  void aLiveWaitingWriterHoldsBackLaterReadersPastItsTtl() throws Exception {
    for (boolean fairWriter : List.of(true, false)) {
      Lease firstRead = newClient().readWriteLock(key).readLock().acquire(LONG_WAIT);
      DistributedLock write = newClient().readWriteLock(key,
          waitingWithTtl(SHORT_TTL).toBuilder().fair(fairWriter).build()).writeLock();
      BackgroundCall<Lease> writer = BackgroundCall.start("writer", () -> write.acquire(LONG_WAIT));
      writer.awaitBlocked();
      DistributedLock laterRead = newClient().readWriteLock(key).readLock();

      await("later readers refused for three of the writer's ttls, fair: " + fairWriter)
          .during(SHORT_TTL.multipliedBy(3)).atMost(PROMPTLY).until(() -> refuses(laterRead));
      firstRead.close();
      writer.result(PROMPTLY).close();
    }
  }

  /**
   * Two clients read in four threads each, every read overlapping others, so that the key is never free of readers;
   * a writer of a third client, fair or not, still gets in: its bound is the reads under way when it arrived, and
   * the joins of their clients' entries (docs/primitives.md).
   */
  @Test
  @Timeout(120)
  void aStreamOfReadersFromTwoClientsStarvesNoWriter() throws Exception {
    for (boolean fairWriter : List.of(true, false)) {
      AtomicBoolean reading = new AtomicBoolean(true);
      List<BackgroundCall<Integer>> readers = new ArrayList<>();
      for (int c = 0; c < 2; c++) {
        DistributedLock read = newClient().readWriteLock(key).readLock();
        for (int t = 0; t < 4; t++) {
          readers.add(BackgroundCall.start("reader-" + c + "-" + t, () -> readUntilStopped(read, reading)));
        }
      }
      LockClient observer = newClient();
      await("readers of both clients reading").atMost(PROMPTLY).until(() -> observer.status(key).holders() >= 2);
      DistributedLock write = newClient().readWriteLock(key, baseOptions().toBuilder().fair(fairWriter).build())
          .writeLock();
      try {
        try (Lease written = write.acquire(WRITER_AMONG_READERS)) {
          assertThat(written.isHeld()).isTrue();
        }
      } finally {
        reading.set(false);
      }
      for (BackgroundCall<Integer> reader : readers) {
        assertThat(reader.result(LONG_WAIT)).as("reads of one reader thread").isPositive();
      }
    }
  }

  /** Reads for {@link #READ_TIME} at a time, again and again, until told to stop; returns how many it made. */
  private static int readUntilStopped(DistributedLock read, AtomicBoolean reading) throws InterruptedException {
    int reads = 0;
    while (reading.get()) {
      try (Lease lease = read.acquire(WRITER_AMONG_READERS)) {
        reads++;
        Thread.sleep(READ_TIME.toMillis()); // the read itself: the work done under the lock
      }
    }
    return reads;
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

  /**
   * Readers and writers of two clients at once, fair and non-fair on both sides: no writer meets anyone, readers do
   * meet, no write is lost.
   */
  @Test
  @Timeout(60)
  void noWriterOverlapsAnyoneAndReadersOverlap() throws Exception {
    SharedHoldChecker checker = new SharedHoldChecker();
    int rounds = 20;
    List<BackgroundCall<Void>> workers = new ArrayList<>();
    for (int c = 0; c < 2; c++) {
      LockClient client = newClient();
      for (int t = 0; t < 4; t++) {
        boolean writer = t == 0;
        boolean lockView = t % 2 == 1;
        boolean fair = (c + t) % 2 == 0; // one client's writer is fair, the other's not, and so are their readers
        DistributedReadWriteLock rw = client.readWriteLock(key, baseOptions().toBuilder().fair(fair).build());
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
