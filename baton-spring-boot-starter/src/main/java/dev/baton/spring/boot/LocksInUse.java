package dev.baton.spring.boot;

import dev.baton.Lease;
import dev.baton.LockObserver;
import dev.baton.LostReason;
import dev.baton.Primitive;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The locks a client holds and the acquires it waits for, as its {@link LockObserver} is told of them: what the
 * {@code locks} endpoint lists. Registered before the first lock is taken, it knows every one; a lease it never saw
 * acquired is not listed.
 */
final class LocksInUse implements LockObserver {
  private final Clock clock;
  /** By lease object: several leases of one key (readers, permits) may be held at once, and end in any order. */
  private final Map<Lease, HeldLock> held = Collections.synchronizedMap(new IdentityHashMap<>());
  /** By thread: an acquire's outcome is told on the thread that began it. */
  private final Map<Thread, Wait> waiting = new ConcurrentHashMap<>();

  LocksInUse(Clock clock) {
    this.clock = clock;
  }

  @Override
  public void acquiring(String key, Primitive primitive) {
    waiting.put(Thread.currentThread(), new Wait(key, primitive.name(), clock.instant()));
  }

  @Override
  public void acquired(Lease lease, Primitive primitive, Duration waited) {
    waiting.remove(Thread.currentThread());
    held.put(lease, new HeldLock(lease.key(), primitive.name(), clock.instant(), lease.fencingToken(), null));
  }

  @Override
  public void timedOut(String key, Primitive primitive, Duration waited) {
    waiting.remove(Thread.currentThread());
  }

  @Override
  public void failed(String key, Primitive primitive, Duration waited, Throwable error) {
    waiting.remove(Thread.currentThread());
  }

  @Override
  public void ended(Lease lease, Primitive primitive, Duration heldFor, LostReason reason) {
    held.remove(lease);
  }

  /** The locks held now, the oldest first, each with when its hold timeout ends it as of now. */
  List<HeldLock> held() {
    Instant now = clock.instant();
    synchronized (held) {
      return held.entrySet().stream()
          .map(lock -> lock.getValue().endingAt(lock.getKey().holdRemaining().map(now::plus).orElse(null)))
          .sorted(Comparator.comparing(HeldLock::since).thenComparing(HeldLock::key))
          .toList();
    }
  }

  /** The acquires waiting now, the longest first. */
  List<Wait> waiting() {
    return waiting.values().stream().sorted(Comparator.comparing(Wait::since).thenComparing(Wait::key)).toList();
  }

  /**
   * A lock this instance holds, granted {@code since}; as {@link LocksEndpoint.HeldLock}.
   *
   * @param holdEndsAt when its hold timeout ends it, or null where it has none (renewed while held)
   */
  record HeldLock(String key, String primitive, Instant since, long fencingToken, Instant holdEndsAt) {

    HeldLock endingAt(Instant end) {
      return new HeldLock(key, primitive, since, fencingToken, end);
    }
  }

  /** An acquire this instance waits for, begun {@code since}; as {@link LocksEndpoint.Wait}. */
  record Wait(String key, String primitive, Instant since) {}
}
