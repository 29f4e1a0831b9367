package dev.baton.testkit;

import dev.baton.DistributedReadWriteLock;
import dev.baton.Lease;
import dev.baton.LockClient;
import dev.baton.LockOptions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * What a crashed client leaves on one key in the soak's crash rounds ({@link LockClientSoak}): an entry it held, or
 * one it waited with behind what the test's own client holds there. The test and the crashing child JVM
 * ({@link CrashingClientMain}) name the keys alike, so that hundreds of names need not be passed between them.
 */
enum CrashedEntry {
  /** The child holds the key's lock. */
  HELD_LOCK("held-lock", false),
  /** The child holds a read lock of the key. */
  HELD_READ_LOCK("held-read-lock", false),
  /** The child holds every permit of the key's semaphore. */
  HELD_PERMITS("held-permits", false),
  /** The test holds the key's lock; the child waits for it. */
  WAITING_LOCK("waiting-lock", true),
  /** The test holds a read lock of the key; the child waits for the write lock behind it. */
  WAITING_WRITER("waiting-writer", true),
  /** The test holds the key's write lock; the child waits for a read lock behind it. */
  WAITING_READER("waiting-reader", true),
  /** The test holds every permit of the key's semaphore; the child waits for one. */
  WAITING_PERMIT("waiting-permit", true);

  /** The permits of every semaphore of a round: more than one, so that permits are entries beside each other. */
  static final int PERMITS = 2;

  private final String name;
  private final boolean waits;

  CrashedEntry(String name, boolean waits) {
    this.name = name;
    this.waits = waits;
  }

  /** The {@code i}th key of this kind in the round whose keys start with {@code round}, named as per-order keys are. */
  String key(String round, int i) {
    return round + "-" + name + "/order-" + i;
  }

  /** Whether the child waits on this kind of key, behind what the test holds, rather than holding it. */
  boolean waits() {
    return waits;
  }

  /**
   * What the test holds on the key before the child starts, so that the child has to wait: nothing where the child
   * holds.
   */
  List<Lease> block(LockClient client, String key, LockOptions options) throws InterruptedException {
    DistributedReadWriteLock readWrite = client.readWriteLock(key, options);
    return switch (this) {
      case HELD_LOCK, HELD_READ_LOCK, HELD_PERMITS -> List.of();
      case WAITING_LOCK -> List.of(client.lock(key, options).acquire());
      case WAITING_WRITER -> List.of(readWrite.readLock().acquire());
      case WAITING_READER -> List.of(readWrite.writeLock().acquire());
      case WAITING_PERMIT -> allPermits(client, key, options);
    };
  }

  /** What the child holds on the key, taken now: nothing where it waits. */
  List<Lease> hold(LockClient client, String key, LockOptions options) throws InterruptedException {
    return switch (this) {
      case HELD_LOCK -> List.of(client.lock(key, options).acquire());
      case HELD_READ_LOCK -> List.of(client.readWriteLock(key, options).readLock().acquire());
      case HELD_PERMITS -> allPermits(client, key, options);
      case WAITING_LOCK, WAITING_WRITER, WAITING_READER, WAITING_PERMIT -> List.of();
    };
  }

  /** What the child waits for on the key, behind what the test holds, until it is killed: nothing where it holds. */
  List<CompletableFuture<Lease>> waitFor(LockClient client, String key, LockOptions options) {
    DistributedReadWriteLock readWrite = client.readWriteLock(key, options);
    return switch (this) {
      case HELD_LOCK, HELD_READ_LOCK, HELD_PERMITS -> List.of();
      case WAITING_LOCK -> List.of(client.lock(key, options).acquireAsync());
      case WAITING_WRITER -> List.of(readWrite.writeLock().acquireAsync());
      case WAITING_READER -> List.of(readWrite.readLock().acquireAsync());
      case WAITING_PERMIT -> List.of(client.semaphore(key, PERMITS, options).acquireAsync());
    };
  }

  /**
   * Takes the key without waiting, as the test does once the child is gone and the test's own holdings released, in
   * the mode that anything left of the child's entry would refuse: the write lock beside a reader, a read lock
   * behind a writer, every permit of a semaphore.
   *
   * @param options the ttl to take it with; the wait time is zero
   * @throws dev.baton.LockTimeoutException if something still refuses it
   */
  List<Lease> takeAtOnce(LockClient client, String key, LockOptions options) throws InterruptedException {
    LockOptions atOnce = options.withWaitTime(Duration.ZERO);
    DistributedReadWriteLock readWrite = client.readWriteLock(key, atOnce);
    return switch (this) {
      case HELD_LOCK, WAITING_LOCK -> List.of(client.lock(key, atOnce).acquire());
      case HELD_READ_LOCK, WAITING_READER -> List.of(readWrite.writeLock().acquire());
      case WAITING_WRITER -> List.of(readWrite.readLock().acquire());
      case HELD_PERMITS, WAITING_PERMIT -> allPermits(client, key, atOnce);
    };
  }

  /** Every permit of the key's semaphore, one after another; none if one of them is refused. */
  private static List<Lease> allPermits(LockClient client, String key, LockOptions options)
      throws InterruptedException {
    List<Lease> permits = new ArrayList<>();
    try {
      for (int i = 0; i < PERMITS; i++) {
        permits.add(client.semaphore(key, PERMITS, options).acquire());
      }
    } catch (RuntimeException | InterruptedException e) {
      permits.forEach(Lease::close);
      throw e;
    }
    return permits;
  }
}
