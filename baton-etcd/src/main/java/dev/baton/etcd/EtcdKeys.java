package dev.baton.etcd;

import io.etcd.jetcd.ByteSequence;
import java.nio.charset.StandardCharsets;

/**
 * Where a lock lives in etcd: the entries of key {@code orders/42} are {@code /baton/orders/42<NUL>...}. The
 * NUL, which no key may hold, keeps the entries of {@code orders} apart from those of {@code orders/42}.
 */
record EtcdKeys(String namespace) {
  private static final char SEPARATOR = '\u0000';

  /** The prefix of every entry of {@code key}. */
  ByteSequence entries(String key) {
    return bytes(namespace + key + SEPARATOR);
  }

  /**
   * The entry a client queues with for {@code key}: one per client lease, as only one thread of a client
   * talks to etcd about a key at a time. Reusing it matters: etcd keeps every key ever deleted in its index
   * until the history is compacted, and reading the queue walks them all, so a new key per acquisition
   * would make each acquisition slower than the last.
   */
  ByteSequence entry(String key, long leaseId) {
    return bytes(namespace + key + SEPARATOR + Long.toHexString(leaseId));
  }

  /** The prefix of every entry of every key that starts with {@code keyPrefix}. */
  ByteSequence entriesUnder(String keyPrefix) {
    return bytes(namespace + keyPrefix);
  }

  /** The key an entry (under this namespace) queues for, or null if it is no entry of Baton's (no separator). */
  String keyOf(ByteSequence entry) {
    String text = text(entry);
    int separator = text.indexOf(SEPARATOR, namespace.length());
    return separator < 0 ? null : text.substring(namespace.length(), separator);
  }

  static ByteSequence bytes(String text) {
    return ByteSequence.from(text, StandardCharsets.UTF_8);
  }

  static String text(ByteSequence bytes) {
    return bytes.toString(StandardCharsets.UTF_8);
  }
}
