package dev.baton.zookeeper;

import dev.baton.LockStatus.Mode;
import dev.baton.spi.QueueRule;

/**
 * How a lock node's name says what it is: {@code _c_<owner id><mark><sequence>}, Curator's protected-node form, where
 * the server appends the 10-digit sequence and the mark is the entry's {@link QueueRule}:
 *
 * <ul>
 *   <li>{@code -lock-}: an {@link Mode#EXCLUSIVE exclusive} entry, named as Curator's {@code InterProcessMutex}
 *       names its nodes, so that the two exclude each other on one path;
 *   <li>{@code -__READ__}: a {@link Mode#SHARED shared} entry, named as the read side of Curator's
 *       {@code InterProcessReadWriteLock} names its nodes;
 *   <li>{@code -permits-<N>-}: one of a semaphore's N {@link Mode#PERMIT permits}. The number is in the name so
 *       that anyone who lists the queue can tell which of its entries hold.
 * </ul>
 *
 * <p>A node of any other name under a lock path is none of Baton's entries and is ignored.
 */
final class LockNodes {
  static final int SEQUENCE_DIGITS = 10;
  private static final String EXCLUSIVE_MARK = "-lock-";
  private static final String SHARED_MARK = "-__READ__";
  private static final String PERMITS_MARK = "-permits-";

  private LockNodes() {}

  /** The name an owner's node is created with under {@code rule}, before the server appends the sequence. */
  static String prefix(String ownerId, QueueRule rule) {
    return ZkPaths.RESERVED_PREFIX + ownerId + mark(rule);
  }

  private static String mark(QueueRule rule) {
    return switch (rule.mode()) {
      case EXCLUSIVE -> EXCLUSIVE_MARK;
      case SHARED -> SHARED_MARK;
      case PERMIT -> PERMITS_MARK + rule.capacity() + "-";
    };
  }

  /** The rule a lock node was created under, as its name says; null if the name is not a lock node's. */
  static QueueRule rule(String name) {
    if (!name.startsWith(ZkPaths.RESERVED_PREFIX) || name.length() < ZkPaths.RESERVED_PREFIX.length() + SEQUENCE_DIGITS) {
      return null;
    }
    String marked = name.substring(0, name.length() - SEQUENCE_DIGITS);
    if (marked.endsWith(EXCLUSIVE_MARK)) {
      return QueueRule.EXCLUSIVE;
    }
    if (marked.endsWith(SHARED_MARK)) {
      return QueueRule.SHARED;
    }
    return permits(marked);
  }

  /** The rule of a name that ends with {@code -permits-<N>-} before its sequence; null for any other name. */
  private static QueueRule permits(String marked) {
    int mark = marked.lastIndexOf(PERMITS_MARK);
    if (mark < 0 || !marked.endsWith("-")) {
      return null;
    }
    String count = marked.substring(mark + PERMITS_MARK.length(), marked.length() - 1);
    // Nine digits at most: any such number fits an int.
    if (count.isEmpty() || count.length() > 9 || !count.chars().allMatch(c -> c >= '0' && c <= '9')) {
      return null;
    }
    int permits = Integer.parseInt(count);
    return permits < 1 ? null : QueueRule.permits(permits);
  }

  /** The sequence the server appended to a lock node's name: its place in the queue. */
  static String sequence(String name) {
    return name.substring(name.length() - SEQUENCE_DIGITS);
  }
}
