package dev.baton.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.DistributedLock;
import dev.baton.Lease;
import dev.baton.LeaseState;
import dev.baton.LockClient;
import dev.baton.LockOptions;
import dev.baton.engine.memory.MemoryStore;
import dev.baton.memory.FakeTicker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Readers of one client share one entry at the store (the engine's local shares), on the in-memory store and fake
 * time: they hold with its token, the last to go releases it, a local writer under way stops joins, 64 joins end a
 * share, and a writer of another client is not starved by a stream of local readers.
 */
@Timeout(30)
class LocalSharesTest {
  /** A wait, in fake time, that never ends unless the test advances time. */
  private static final Duration WAIT = Duration.ofSeconds(10);
  /** How long, in real time, a thread may take to do what it was started for. */
  private static final Duration PROMPTLY = Duration.ofSeconds(5);
  /** How long, in real time, a thread waits in the client's local queue before the test takes it as queued. */
  private static final Duration QUEUED = Duration.ofMillis(50);
  private static final Duration TTL = Duration.ofSeconds(3);

  private final FakeTicker time = new FakeTicker();
  private final MemoryStore store = MemoryStore.create("local-shares-" + UUID.randomUUID(), time);

  @AfterEach
  void closeStore() {
    store.close();
  }

  @Test
  void aSecondReaderJoinsTheFirstsEntryAndTheLastToGoReleasesIt() throws Exception {
    try (LockClient client = store.connect(LockOptions.defaults())) {
      DistributedLock read = client.readWriteLock("k").readLock();
      Lease first = read.acquire(WAIT);
      Lease second = BackgroundCall.start("second-reader", () -> read.acquire(WAIT)).result(PROMPTLY);

      assertThat(second.fencingToken()).as("the joined entry's token").isEqualTo(first.fencingToken());
      assertThat(store.entries("k")).isEqualTo(1);
      first.close();
      assertThat(second.isHeld()).as("the second reader, once the first left").isTrue();
      assertThat(store.entries("k")).isEqualTo(1);
      second.close();
      assertThat(store.entries("k")).isZero();
    }
  }

  @Test
  void anEntryRemovedBehindTheirBackIsLostByEveryReaderOnIt() throws Exception {
    try (LockClient client = store.connect(LockOptions.builder().ttl(TTL).build())) {
      DistributedLock read = client.readWriteLock("k").readLock();
      Lease first = read.acquire(WAIT);
      Lease second = BackgroundCall.start("second-reader", () -> read.acquire(WAIT)).result(PROMPTLY);
      store.removeHolder("k");
      time.advance(TTL); // the next renewal finds the entry gone

      await().atMost(PROMPTLY).until(() -> !first.isHeld() && !second.isHeld());
      assertThat(first.state()).isEqualTo(LeaseState.LOST);
      assertThat(second.state()).isEqualTo(LeaseState.LOST);
    }
  }

  @Test
  void aReaderAfterTheLossOfTheSharedEntryTakesANewOneAndTheKeyIsFreeOnceItIsReleased() throws Exception {
    try (LockClient client = store.connect(LockOptions.builder().ttl(TTL).build());
        LockClient other = store.connect(LockOptions.defaults())) {
      DistributedLock read = client.readWriteLock("k").readLock();
      Lease first = read.acquire(WAIT);
      Lease second = BackgroundCall.start("second-reader", () -> read.acquire(WAIT)).result(PROMPTLY);
      store.removeHolder("k");
      time.advance(TTL);
      await().atMost(PROMPTLY).until(() -> first.state() == LeaseState.LOST && second.state() == LeaseState.LOST);

      Lease third = read.acquire(WAIT);
      assertThat(third.fencingToken()).as("the token of a new entry").isGreaterThan(first.fencingToken());
      assertThat(other.readWriteLock("k").writeLock().tryAcquire()).as("a writer beside the new reader").isEmpty();
      third.close();
      assertThat(store.entries("k")).isZero();
      Lease written = client.readWriteLock("k").writeLock().acquire(WAIT);
      assertThat(written.isHeld()).as("a local writer once the readers are gone").isTrue();
      written.close();
    }
  }

  @Test
  void aLocalWriterUnderWayStopsJoinsSoThatLaterReadersQueueBehindIt() throws Exception {
    try (LockClient client = store.connect(LockOptions.defaults())) {
      Lease reading = client.readWriteLock("k").readLock().acquire(WAIT);
      BackgroundCall<Lease> writer = BackgroundCall.start("writer", () -> client.readWriteLock("k").writeLock().acquire(WAIT));
      writer.awaitBlocked(QUEUED);
      BackgroundCall<Lease> later = BackgroundCall.start("later-reader",
          () -> client.readWriteLock("k").readLock().acquire(WAIT));
      later.awaitBlocked(QUEUED);

      reading.close();
      Lease written = writer.result(PROMPTLY);
      assertThat(later.isDone()).as("the later reader, while the writer holds").isFalse();
      written.close();
      try (Lease read = later.result(PROMPTLY)) {
        assertThat(read.fencingToken()).isGreaterThan(written.fencingToken());
      }
    }
  }

  @Test
  void sixtyFourJoinsEndAShareAndTheNextReaderTakesAnEntryOfItsOwn() throws Exception {
    try (LockClient client = store.connect(LockOptions.defaults())) {
      DistributedLock read = client.readWriteLock("k").readLock();
      Lease host = read.acquire(WAIT);
      List<Lease> joined = new ArrayList<>();
      for (int i = 0; i < 65; i++) {
        joined.add(BackgroundCall.start("reader-" + i, () -> read.acquire(WAIT)).result(PROMPTLY));
      }
      assertThat(joined.subList(0, 64)).allSatisfy(lease -> assertThat(lease.fencingToken()).isEqualTo(host.fencingToken()));
      assertThat(joined.get(64).fencingToken()).as("the 65th reader's own entry").isGreaterThan(host.fencingToken());
      assertThat(store.entries("k")).isEqualTo(2);
      host.close();
      joined.forEach(Lease::close);
      assertThat(store.entries("k")).isZero();
    }
  }

  @Test
  void aWriterOfAnotherClientGetsInWhileLocalReadersNeverStop() throws Exception {
    try (LockClient readers = store.connect(LockOptions.defaults());
        LockClient writers = store.connect(LockOptions.defaults())) {
      DistributedLock read = readers.readWriteLock("k").readLock();
      AtomicBoolean reading = new AtomicBoolean(true);
      List<BackgroundCall<Void>> threads = new ArrayList<>();
      for (int t = 0; t < 3; t++) {
        threads.add(BackgroundCall.start("reader-" + t, () -> {
          while (reading.get()) {
            try (Lease lease = read.acquire(WAIT)) {
              Thread.onSpinWait(); // the readers overlap: one always holds while another takes its turn
            }
          }
          return null;
        }));
      }
      try (Lease written = writers.readWriteLock("k").writeLock().acquire(WAIT)) {
        assertThat(written.isHeld()).as("the writer, among a stream of another client's readers").isTrue();
      } finally {
        reading.set(false);
        for (BackgroundCall<Void> thread : threads) {
          thread.result(PROMPTLY);
        }
      }
    }
  }
}
