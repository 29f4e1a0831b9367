package dev.baton.etcd;

import dev.baton.LockStatus.Mode;
import dev.baton.spi.QueueRule;
import io.etcd.jetcd.ByteSequence;
import java.nio.charset.StandardCharsets;

/**
 * Where a lock lives in etcd: the entries of key {@code orders/42} are {@code /baton/orders/42<NUL>NAME}. The NUL,
 * which no key may hold, keeps the entries of {@code orders} apart from those of {@code orders/42}. An entry's name
 * says its mode:
 *
 * <ul>
 *   <li>{@code LEASE}, the client's lease in hex: an exclusive entry, named as Baton has always named a lock's entries,
 *       so that an older and a newer client exclude each other on a mutex (an older one counts every entry of the key
 *       as exclusive, the marked ones too);
 *   <li>{@code ~s/LEASE/SLOT}: a shared entry;
 *   <li>{@code ~pN/LEASE/SLOT}: one of N permits.
 * </ul>
 *
 * <p>The marked names sort after every exclusive one ({@code ~} after the hex digits), so the exclusive entries of a
 * key are one range of names, {@link #exclusiveEntries}, which a shared entry reads without walking the others. Any
 * name below {@code ~} counts as exclusive; any other name that is not a shared entry's counts as a permit: so every
 * reader of a key's entries gives each the same mode.
 *
 * <p>Compatible with etcd's own lock ({@code etcdCompatible}), the separator is {@code /} and there is no namespace
 * unless one is given: the entry of key {@code K} is {@code K/LEASE}, as etcd's {@code concurrency.Mutex} (behind
 * {@code etcdctl lock K} and the lock service) names its own, and every entry is exclusive. There the entries of a key
 * nested under another ({@code K/sub}) fall in the other's range: {@link #nestedKeyOf} tells them apart.
 *
 * @param namespace the prefix of every entry
 * @param etcdCompatible whether entries are named as etcd's own lock names them
 */
record EtcdKeys(String namespace, boolean etcdCompatible) {
  private static final char NUL = '\u0000';
  private static final char SLASH = '/';
  private static final char MARK = '~';
  private static final String SHARED = MARK + "s/";
  private static final String PERMITS = MARK + "p";

  /** The prefix of every entry of {@code key}. */
  ByteSequence entries(String key) {
    return bytes(namespace + key + separator());
  }

  private char separator() {
    return etcdCompatible ? SLASH : NUL;
  }

  /** Where the names of {@code key}'s exclusive entries end: they run from {@link #entries} to here. */
  ByteSequence exclusiveEntriesEnd(String key) {
    return bytes(namespace + key + separator() + MARK);
  }

  /**
   * The exclusive entry a client queues with for {@code key}: one per client lease, as only one exclusive acquisition
   * of a client asks for a key at a time. Reusing it matters: etcd keeps every key ever deleted in its index until
   * the history is compacted, and reading the queue walks them all, so a new key per acquisition would make each
   * acquisition slower than the last.
   */
  ByteSequence entry(String key, long leaseId) {
    return entry(key, leaseId, 0);
  }

  /**
   * The exclusive entry of a client lease for {@code key} after {@code retired} of its names were retired: a release
   * whose plain delete went unanswered may still be applied later, so its name is not written again
   * ({@link EntryNames}). The first is {@code LEASE}, the next ones {@code LEASE/N}, exclusive names still (below
   * {@code ~}). Compatible with etcd's own lock, names are never retired: the entry is always {@code K/LEASE}.
   */
  ByteSequence entry(String key, long leaseId, int retired) {
    String lease = Long.toHexString(leaseId);
    return bytes(namespace + key + separator() + (retired == 0 ? lease : lease + SLASH + retired));
  }

  /**
   * The shared entry or permit of {@code rule} in slot {@code slot} of a client lease: a client may have several on a
   * key at once, one per slot, and reuses the slots (see {@link EntryNames}).
   */
  ByteSequence entry(String key, long leaseId, QueueRule rule, int slot) {
    String mark = rule.mode() == Mode.SHARED ? SHARED : PERMITS + rule.capacity() + "/";
    return bytes(namespace + key + separator() + mark + Long.toHexString(leaseId) + "/" + slot);
  }

  /**
   * Where requests to release the entries of client {@code clientId} are put: {@code NAMESPACE<NUL>release/CLIENT},
   * which is no lock's entry (a key is never empty) and which listings skip ({@link #keyOf} finds no key in it).
   */
  ByteSequence releaseRequests(String clientId) {
    return bytes(namespace + NUL + "release/" + clientId);
  }

  /** The prefix of every entry of every key that starts with {@code keyPrefix}. */
  ByteSequence entriesUnder(String keyPrefix) {
    return bytes(namespace + keyPrefix);
  }

  /** The key an entry (under this namespace) queues for, or null if it is no entry of Baton's (no separator). */
  String keyOf(ByteSequence entry) {
    String text = text(entry);
    int separator = etcdCompatible ? text.lastIndexOf(SLASH) : text.indexOf(NUL, namespace.length());
    return separator <= namespace.length() ? null : text.substring(namespace.length(), separator);
  }

  /**
   * The key nested under {@code key} that {@code entry}, read among {@code key}'s entries, queues for; null if it is
   * one of {@code key}'s own. Only etcd-compatible names can be: a key holds no NUL.
   */
  String nestedKeyOf(String key, ByteSequence entry) {
    String name = text(entry).substring(namespace.length() + key.length() + 1);
    int slash = name.lastIndexOf(SLASH);
    return etcdCompatible && slash >= 0 ? key + SLASH + name.substring(0, slash) : null;
  }

  /** The rule of the acquisition that wrote {@code entry}, as its name says: its mode and, for a permit, how many. */
  QueueRule ruleOf(ByteSequence entry) {
    if (etcdCompatible) {
      return QueueRule.EXCLUSIVE;
    }
    String text = text(entry);
    String name = text.substring(text.indexOf(NUL) + 1);
    if (name.isEmpty() || name.charAt(0) < MARK) {
      return QueueRule.EXCLUSIVE;
    }
    return name.startsWith(SHARED) ? QueueRule.SHARED : QueueRule.permits(permitsIn(name));
  }

  /** The N of a permit's name {@code ~pN/...}; 1 for a name under the mark that does not say. */
  private static int permitsIn(String name) {
    int end = name.indexOf('/');
    if (!name.startsWith(PERMITS) || end <= PERMITS.length()) {
      return 1;
    }
    try {
      return Math.max(1, Integer.parseInt(name.substring(PERMITS.length(), end)));
    } catch (NumberFormatException e) {
      return 1;
    }
  }

  static ByteSequence bytes(String text) {
    return ByteSequence.from(text, StandardCharsets.UTF_8);
  }

  static String text(ByteSequence bytes) {
    return bytes.toString(StandardCharsets.UTF_8);
  }
}
