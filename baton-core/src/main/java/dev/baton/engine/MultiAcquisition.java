package dev.baton.engine;

import dev.baton.LockHolder.MultiLock;
import dev.baton.LockOptions;
import dev.baton.LockTimeoutException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * One acquire of a multi-lock, blocking or not: its keys in order, its one deadline, and the lease it fills key by
 * key. Each key is taken by the path a lock's acquire takes ({@link Engine#acquire}, {@link Engine#acquireAsync}),
 * within the one deadline: a key reached once the deadline passed is tried once. The caller takes the keys one after
 * the other ({@link #nextKey}, {@link #partOptions}, {@link #nextDeadline}, {@link #took}) and, if one fails,
 * {@link #abandon}s the rest.
 *
 * <p>A key taken may be lost while a later one is waited for (its entry removed, its renewals failing). Then this
 * round of the acquire ends: its lease ends, which lets go of the keys it took, and its {@link #stop()} ends the wait
 * under way, which fails as at the deadline. The caller then {@link #startOver starts over} from the first key,
 * within what is left of the same deadline, with a new lease: the caller gets a lease that held every key from when
 * it was returned, or the timeout, never a lease lost before it was had.
 */
final class MultiAcquisition {
  private final Engine engine;
  private final List<String> keys;
  private final Optional<MultiLock> multiLock;
  private final LockOptions options;
  private final LockOptions partOptions;
  private final Deadline deadline;
  /** The round under way: replaced by {@link #startOver} only, on the acquiring thread or chain. */
  private volatile Round round;

  /** One try at every key in order, with its own lease and the stop that ends its waits when that lease ends. */
  private static final class Round {
    final MultiLease lease;
    final EarlyStop stop = new EarlyStop();
    /** The index of the next key: written by one step at a time, each after the step before it. */
    volatile int next;

    Round(Engine engine, List<String> keys, boolean holdTimeout) {
      this.lease = new MultiLease(engine, keys, holdTimeout, () -> engine.inBackground(stop::stop));
    }
  }

  /** An acquire of {@code keys}, in that order, under {@code options}; its deadline starts now. */
  MultiAcquisition(Engine engine, List<String> keys, LockOptions options) {
    this.engine = engine;
    this.keys = keys;
    this.multiLock = Optional.of(MultiLock.of(keys));
    this.options = options;
    this.partOptions = options.holdTimeout().isPresent() ? options.withHoldTimeout(MultiLease.UNTIL_ALL_TAKEN) : options;
    this.deadline = Deadline.after(engine.time(), options.waitTime());
    this.round = newRound();
  }

  String nextKey() {
    return keys.get(round.next);
  }

  /** The keys not taken yet in this round, in order: the next one first. */
  List<String> keysLeft() {
    return keys.subList(round.next, keys.size());
  }

  /** The options of each key's acquire: the multi-lock's, with the hold timeout left to the lease over the keys. */
  LockOptions partOptions() {
    return partOptions;
  }

  /**
   * The deadline of the next key's acquire: the one deadline, which ends at once if a key of this round is lost. A
   * time and not what is left of it, so a step that begins later keeps it exactly.
   */
  Deadline nextDeadline() {
    return deadline.stoppedBy(round.stop);
  }

  /** The keys as each key's entry names them ({@link Engine#acquire}). */
  Optional<MultiLock> multiLock() {
    return multiLock;
  }

  /** What ends the wait for the next key early: a key of this round was lost. */
  EarlyStop stop() {
    return round.stop;
  }

  /**
   * The next key's lease was granted; false when no key is left to take: every key is held (the hold timeout starts
   * now), and {@link #lease()} is the caller's. If this round's lease ended meanwhile (a key taken before was lost),
   * the part is released and the acquire starts over from the first key: true.
   */
  boolean took(EngineLease part) {
    Round current = round;
    current.next++;
    if (!current.lease.take(part)) {
      return startOver();
    }
    if (current.next < keys.size()) {
      return true;
    }
    options.holdTimeout().ifPresent(current.lease::allTaken);
    return current.lease.hasEnded() && startOver();
  }

  /**
   * The leases of the next keys, taken in one request ({@link FreeKeys}): {@link #took} for each in order. A part
   * left over once its round ended (a key taken before was lost, and the acquire starts over) is released.
   */
  boolean tookEach(List<EngineLease> parts) {
    Round current = round;
    boolean more = true;
    for (EngineLease part : parts) {
      if (round != current) {
        part.release();
      } else {
        more = took(part);
      }
    }
    return more;
  }

  /**
   * Starts over from the first key with a new lease if this round's lease was lost while its keys were taken: true,
   * and the next key is the first. False if it was not lost (the failure at hand is the acquire's).
   */
  boolean startOver() {
    Round current = round;
    if (!current.lease.hasEnded()) {
      return false;
    }
    current.stop.stop();
    round = newRound();
    return true;
  }

  MultiLease lease() {
    return round.lease;
  }

  /** The acquire failed with {@code failure}: releases the keys taken, adding any release refused to it. */
  void abandon(Throwable failure) {
    round.lease.abandon(failure);
  }

  /** What the caller is told when the next key was not had within the deadline. */
  LockTimeoutException timeout() {
    return new LockTimeoutException("Multi-lock " + keys + " on " + engine.backend().name() + " was not acquired"
        + " within " + Durations.format(options.waitTime().orElse(Duration.ZERO)) + ": key '" + nextKey() + "' is"
        + " held by another owner, and the keys taken before it were released. Wait longer, or retry later.");
  }

  private Round newRound() {
    return new Round(engine, keys, options.holdTimeout().isPresent());
  }
}
