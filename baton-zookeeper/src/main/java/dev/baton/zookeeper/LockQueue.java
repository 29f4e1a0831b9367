package dev.baton.zookeeper;

import dev.baton.LockStatus;
import dev.baton.LockStatus.Mode;
import dev.baton.spi.HolderRecord;
import dev.baton.spi.QueueRule;
import java.util.Comparator;
import java.util.List;

/**
 * A lock's queue as one listing of its path shows it: the {@link LockNodes lock nodes} in order of their sequence,
 * whoever created them and however they wait, each with the rule its name says. Who holds follows from that order and
 * those rules alone ({@link QueueRule#awaited}), so every client that lists the queue agrees on it.
 */
final class LockQueue {
  private static final Comparator<String> BY_SEQUENCE = Comparator.comparing(LockNodes::sequence);

  private final List<String> names;
  private final List<QueueRule> rules;
  private final List<Mode> modes;

  private LockQueue(List<String> names, List<QueueRule> rules) {
    this.names = names;
    this.rules = rules;
    this.modes = rules.stream().map(QueueRule::mode).toList();
  }

  /** The queue among a lock path's children: its lock nodes, the oldest first; other nodes are ignored. */
  static LockQueue of(List<String> children) {
    List<String> names = children.stream().filter(name -> LockNodes.rule(name) != null).sorted(BY_SEQUENCE).toList();
    return new LockQueue(names, names.stream().map(LockNodes::rule).toList());
  }

  /** The queue once its {@code gone} oldest entries have left. */
  LockQueue withoutOldest(int gone) {
    return new LockQueue(names.subList(gone, names.size()), rules.subList(gone, rules.size()));
  }

  boolean isEmpty() {
    return names.isEmpty();
  }

  int size() {
    return names.size();
  }

  String name(int index) {
    return names.get(index);
  }

  QueueRule rule(int index) {
    return rules.get(index);
  }

  /** The index of the node of that name, or -1 if it is not in the queue. */
  int indexOf(String name) {
    return names.indexOf(name);
  }

  /** The modes of the entries older than the one at {@code index}, oldest first: what its rule decides on. */
  List<Mode> modesBefore(int index) {
    return modes.subList(0, index);
  }

  /** Whether the entry at {@code index} holds, by its own rule. The oldest always does. */
  boolean holds(int index) {
    return rules.get(index).awaited(modesBefore(index)) == QueueRule.HOLDS;
  }

  /** How many entries wait: those their rule does not let hold. */
  int waiting() {
    return QueueRule.waiting(rules);
  }

  /** The status of the lock, held by the oldest entry, which {@code oldest} describes. */
  LockStatus describe(HolderRecord oldest, String key, long fencingToken) {
    return QueueRule.describe(oldest.held(key, fencingToken, null, waiting()), rules);
  }
}
