package dev.baton.zookeeper;

import dev.baton.LockStatus.Mode;
import dev.baton.spi.AcquireRequest;
import dev.baton.spi.QueueRule;
import java.util.ArrayList;
import java.util.List;

/**
 * The nodes a waiting entry watches: enough that it is woken once it may hold, and no more, so that a release wakes
 * as few waiters as it can. An entry waits while {@code capacity} or more older entries conflict with it
 * ({@link QueueRule}).
 *
 * <p>A fair waiter keeps its place in line:
 *
 * <ul>
 *   <li>under a rule of capacity 1 (a lock, a read lock), it needs every conflicting entry ahead gone, so it watches
 *       the one the rule names, the nearest: a release wakes one waiter;
 *   <li>as the first waiter for one of N permits, any of the N conflicting entries ahead going lets it in, so it
 *       watches them all. (The rule names the oldest of them, the one to go first if permits came back in the order
 *       they were taken; they come back in any order.)
 *   <li>behind another waiter for a permit of the same semaphore, it watches that one only, {@link #chained}: that
 *       entry writes its node when it is granted ({@link #mayBeChainedOn}), and then this one is the first waiter.
 * </ul>
 *
 * <p>A non-fair waiter keeps no place in line: it watches the oldest {@code capacity} entries it conflicts with (a
 * lock's: the holder), and races again whenever one of them goes. A non-fair writer behind readers only is the
 * exception ({@link #keepsPlace}).
 *
 * <p>Both ways are sound because an entry with {@code c} conflicting entries ahead needs {@code c - capacity + 1} of
 * them gone before it may hold, and only {@code c - capacity} are left unwatched.
 *
 * @param indexes the watched entries' indexes in the queue
 * @param chained whether the one watched entry is a waiter ahead that tells, by a write to its node, when it holds
 */
record WaitTargets(List<Integer> indexes, boolean chained) {

  /**
   * Whether the waiter at {@code index} keeps its place in line: a fair one always; a non-fair writer while no other
   * exclusive entry is ahead of it. A writer that left the queue while readers held would find, each time it came
   * back, the readers that came meanwhile ahead of it, and a stream of overlapping readers would keep it out for
   * ever; in line, it holds back the readers that come after it, and waits only for those ahead. It still races for
   * the release of an exclusive entry, which is what non-fair asks for.
   */
  static boolean keepsPlace(LockQueue queue, int index, AcquireRequest request) {
    return request.fair() || (request.rule().mode() == Mode.EXCLUSIVE
        && !queue.modesBefore(index).contains(Mode.EXCLUSIVE));
  }

  /** What a fair waiter at {@code index} under {@code rule} watches; the rule does not let it hold. */
  static WaitTargets fair(LockQueue queue, int index, QueueRule rule) {
    int predecessor = index - 1;
    if (rule.capacity() > 1 && queue.rule(predecessor).equals(rule) && !queue.holds(predecessor)) {
      return new WaitTargets(List.of(predecessor), true);
    }
    List<Mode> ahead = queue.modesBefore(index);
    List<Integer> nearest = new ArrayList<>();
    for (int i = rule.awaited(ahead); i < index; i++) {
      if (rule.conflictsWith(ahead.get(i))) {
        nearest.add(i);
      }
    }
    return new WaitTargets(nearest, false);
  }

  /** What a non-fair waiter at {@code index} under {@code rule} watches once it leaves; the rule does not let it hold. */
  static WaitTargets nonFair(LockQueue queue, int index, QueueRule rule) {
    List<Mode> ahead = queue.modesBefore(index);
    List<Integer> oldest = new ArrayList<>();
    for (int i = 0; i < index && oldest.size() < rule.capacity(); i++) {
      if (rule.conflictsWith(ahead.get(i))) {
        oldest.add(i);
      }
    }
    return new WaitTargets(oldest, false);
  }

  /**
   * Whether the entry right behind the one at {@code index} may watch it {@link #chained chained}, so that the entry
   * at {@code index} must write its node when it is granted: both are permits of the same semaphore.
   */
  static boolean mayBeChainedOn(LockQueue queue, int index) {
    QueueRule rule = queue.rule(index);
    return rule.capacity() > 1 && index + 1 < queue.size() && queue.rule(index + 1).equals(rule);
  }
}
