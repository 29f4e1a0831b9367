package dev.baton.zookeeper;

import dev.baton.spi.EntryMode;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;

/**
 * The nodes of a lock's queue, named as Curator names its protected lock nodes: {@code _c_<owner id>-lock-} and
 * the 10-digit sequence the server appends. They queue in order of their sequence, whoever created them and however
 * they wait, and the core's {@link dev.baton.spi.QueueRule} says which of them hold. Every node is an
 * {@link EntryMode#EXCLUSIVE exclusive} entry; the marks of shared entries and permits come with the read-write lock
 * and the semaphore.
 */
final class LockNodes {
  private static final String MARK = "-lock-";
  private static final int SEQUENCE_DIGITS = 10;
  private static final Comparator<String> BY_SEQUENCE = Comparator.comparing(name -> name.substring(name.length() - SEQUENCE_DIGITS));

  private LockNodes() {}

  /** The name an owner's node is created with, before the server appends the sequence. */
  static String prefix(String ownerId) {
    return ZkPaths.RESERVED_PREFIX + ownerId + MARK;
  }

  /** The lock nodes among a lock path's children, in queue order: the holder first. */
  static List<String> queue(List<String> children) {
    return children.stream().filter(LockNodes::isLockNode).sorted(BY_SEQUENCE).toList();
  }

  /** The modes of lock nodes, in their order. */
  static List<EntryMode> modes(List<String> nodes) {
    return Collections.nCopies(nodes.size(), EntryMode.EXCLUSIVE);
  }

  private static boolean isLockNode(String name) {
    int mark = name.lastIndexOf(MARK);
    return name.startsWith(ZkPaths.RESERVED_PREFIX) && mark > 0 && name.length() - mark - MARK.length() == SEQUENCE_DIGITS;
  }
}
