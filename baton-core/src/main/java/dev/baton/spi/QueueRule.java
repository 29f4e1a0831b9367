package dev.baton.spi;

import dev.baton.LockStatus;
import dev.baton.LockStatus.Mode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * Who holds among the entries of one key's queue at the store, decided here for every store so that they all
 * agree. Entries queue in order of arrival; an entry holds when no exclusive entry is older and fewer than
 * {@link #capacity()} older entries conflict with it, and otherwise waits for the entries whose departure could let
 * it in:
 *
 * <ul>
 *   <li>a mutex ({@link #EXCLUSIVE}): nothing ahead; it waits for its predecessor;
 *   <li>a read lock ({@link #SHARED}): no exclusive entry ahead; it waits for the nearest one;
 *   <li>a semaphore of N permits ({@link #permits}): no exclusive entry and fewer than N entries ahead; it waits
 *       for the nearest exclusive entry if there is one, else for any of the N nearest to go, as permits are given
 *       back in any order.
 * </ul>
 *
 * <p>A store that lists a key's queue applies the rule to the modes of the entries ahead of its own
 * ({@link #awaited}); one that decides in a single server-side step (a Redis script) takes {@link #mode()} and
 * {@link #capacity()} as parameters of that step.
 */
public final class QueueRule {
  /** One holder at a time: a mutex, or the write side of a read-write lock. */
  public static final QueueRule EXCLUSIVE = new QueueRule(Mode.EXCLUSIVE, 1);
  /** Any number of holders while no exclusive entry is ahead: the read side of a read-write lock. */
  public static final QueueRule SHARED = new QueueRule(Mode.SHARED, 1);

  /** What {@link #awaited} returns for an entry that holds. */
  public static final int HOLDS = -1;

  private final Mode mode;
  private final int capacity;

  private QueueRule(Mode mode, int capacity) {
    this.mode = mode;
    this.capacity = capacity;
  }

  /**
   * At most {@code permits} holders at once: a semaphore.
   *
   * @throws IllegalArgumentException if {@code permits} is less than 1
   */
  public static QueueRule permits(int permits) {
    if (permits < 1) {
      throw new IllegalArgumentException("A semaphore needs at least 1 permit but was given " + permits + ".");
    }
    return new QueueRule(Mode.PERMIT, permits);
  }

  /** The mode of the entry an acquisition under this rule adds. */
  public Mode mode() {
    return mode;
  }

  /** How many conflicting entries may hold at once, this one included: 1 for locks, N for N permits. */
  public int capacity() {
    return capacity;
  }

  /** Whether every entry conflicts with every other: then an entry holds when it is among the {@link #capacity} oldest. */
  public boolean conflictsWithAll() {
    return mode != Mode.SHARED;
  }

  /**
   * Which entry an entry of this rule waits for, given the modes of the key's entries older than it, oldest first:
   * the index in {@code ahead} of the nearest exclusive entry, or else of the {@code capacity}-th nearest conflicting
   * entry, or {@link #HOLDS} if it holds now. With a capacity above 1 and no exclusive entry ahead, the departure of
   * that entry or of any nearer conflicting one lets it in: a store wakes the waiter when any of them goes.
   */
  public int awaited(List<Mode> ahead) {
    // From the nearest back: an exclusive entry blocks whatever the capacity; else the capacity-th conflicting one.
    int conflicting = 0;
    for (int i = ahead.size() - 1; i >= 0; i--) {
      if (ahead.get(i) == Mode.EXCLUSIVE
          || (conflictsWith(ahead.get(i)) && ++conflicting == capacity)) {
        return i;
      }
    }
    return HOLDS;
  }

  /** How many of a key's entries do not hold, given their rules, oldest first: the waiters its status counts. */
  public static int waiting(List<QueueRule> queue) {
    return queue.size() - holding(queue, null);
  }

  /**
   * The status of a key held by its oldest entry, which {@code oldest} describes, given the rules of all its entries,
   * oldest first: how they hold it and how many hold it beside the oldest.
   */
  public static LockStatus describe(LockStatus oldest, List<QueueRule> queue) {
    QueueRule first = queue.get(0);
    return LockStatuses.heldBy(oldest, first.mode, holding(queue, first.mode), first.capacity);
  }

  /** How many entries of {@code queue} hold by their rule, counting those of {@code mode} only unless it is null. */
  private static int holding(List<QueueRule> queue, Mode mode) {
    List<Mode> ahead = new ArrayList<>(queue.size());
    int holding = 0;
    for (QueueRule rule : queue) {
      if ((mode == null || rule.mode == mode) && rule.awaited(ahead) == HOLDS) {
        holding++;
      }
      ahead.add(rule.mode);
    }
    return holding;
  }

  /**
   * Refuses an entry under this rule on {@code key} where the store has an entry under {@code atStore} that counts
   * another number of permits: clients that disagree on a semaphore's permits get this error, never an extra permit.
   *
   * @throws IllegalArgumentException naming both numbers
   */
  public void checkSamePermits(String key, QueueRule atStore) {
    if (mode == Mode.PERMIT && atStore.mode == Mode.PERMIT && atStore.capacity != capacity) {
      throw new IllegalArgumentException("Semaphore '" + key + "' has " + atStore.capacity
          + (atStore.capacity == 1 ? " permit" : " permits") + " at the store, but this client asks for " + capacity
          + ": every client of a semaphore must give the same number.");
    }
  }

  /**
   * The index in {@code ahead} of the oldest entry that conflicts with this rule's, or {@link #HOLDS} if none does:
   * what a waiter that keeps no place in line (a non-fair one) waits for.
   */
  public int firstConflicting(List<Mode> ahead) {
    for (int i = 0; i < ahead.size(); i++) {
      if (conflictsWith(ahead.get(i))) {
        return i;
      }
    }
    return HOLDS;
  }

  /**
   * Whether an entry under this rule must wait for an older entry of mode {@code ahead}: a shared entry for exclusive
   * entries only, an exclusive entry or a permit for every entry.
   */
  public boolean conflictsWith(Mode ahead) {
    return mode != Mode.SHARED || ahead == Mode.EXCLUSIVE;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof QueueRule rule && rule.mode == mode && rule.capacity == capacity;
  }

  @Override
  public int hashCode() {
    return Objects.hash(mode, capacity);
  }

  @Override
  public String toString() {
    return mode == Mode.PERMIT ? capacity + " permits" : mode.name().toLowerCase(Locale.ROOT);
  }
}
