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

  /** The entry of one acquisition: unique to its lease and owner id. */
  ByteSequence entry(String key, long leaseId, String ownerId) {
    return bytes(namespace + key + SEPARATOR + Long.toHexString(leaseId) + "-" + ownerId);
  }

  static ByteSequence bytes(String text) {
    return ByteSequence.from(text, StandardCharsets.UTF_8);
  }
}
