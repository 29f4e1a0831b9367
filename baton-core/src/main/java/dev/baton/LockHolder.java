package dev.baton;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Who holds a lock, as its holder wrote it at the store when it acquired it: the machine, the process, the thread
 * and when, for the first question of an incident ("what is stuck, and where?"), and the multi-lock it holds the key
 * for, if any. Informational only: the time is the holder's own clock, and a lock handed over between the threads of
 * one client keeps the first thread's name.
 *
 * @param host the holder's host name
 * @param pid the holder's process id
 * @param thread the name of the thread that acquired the lock at the store
 * @param acquiredAt when it did, by the holder's clock
 * @param linger how long the holder keeps the lock at the store after its release, for a re-acquire of its own
 *     ({@link LockOptions.Builder#linger}); zero if it releases at once. Such a holder may hold the lock idle: it
 *     gives it up within a few round trips to a client that waits, or at once when asked
 *     ({@link LockClient#requestRelease}).
 * @param multiLock the keys held together with this one, if it is held as a key of a
 *     {@link LockClient#multiLock multi-lock}; empty for a lock held on its own
 */
public record LockHolder(String host, long pid, String thread, Instant acquiredAt, Duration linger,
    Optional<MultiLock> multiLock) {
  public LockHolder {
    Objects.requireNonNull(host, "host");
    Objects.requireNonNull(thread, "thread");
    Objects.requireNonNull(acquiredAt, "acquiredAt");
    Objects.requireNonNull(linger, "linger");
    Objects.requireNonNull(multiLock, "multiLock");
  }

  /** A holder of a lock held on its own, that releases it at once, without linger. */
  public LockHolder(String host, long pid, String thread, Instant acquiredAt) {
    this(host, pid, thread, acquiredAt, Duration.ZERO, Optional.empty());
  }

  /** Whether the holder may keep the lock idle after its release: it was acquired with a linger. */
  public boolean lingers() {
    return !linger.isZero();
  }

  /** This holder, keeping the lock {@code linger} after its release. */
  public LockHolder withLinger(Duration linger) {
    return new LockHolder(host, pid, thread, acquiredAt, linger, multiLock);
  }

  /** This holder, holding the key as one of {@code multiLock}'s. */
  public LockHolder withMultiLock(MultiLock multiLock) {
    return new LockHolder(host, pid, thread, acquiredAt, linger, Optional.of(multiLock));
  }

  /**
   * The keys a multi-lock holds together, as each of its keys' entries names them: how many, and an id of the set
   * that every key of it shows alike, so that {@code baton status} and {@code baton list} can tell which keys one
   * holder holds together. An entry handed over locally to a holder for other keys (or none) has its record rewritten
   * to name them, one write later, where the store can; where it cannot, only a multi-lock over the same keys takes
   * such an entry over, so the id stays true for as long as the entry is held.
   *
   * @param keys how many keys the multi-lock holds, this one among them
   * @param set the id of the set of keys: the first 16 hex digits of the SHA-256 of the keys, sorted by code point
   *     and each followed by a NUL, as UTF-8
   */
  public record MultiLock(int keys, String set) {
    public MultiLock {
      Objects.requireNonNull(set, "set");
    }

    /** The multi-lock over {@code keys}, distinct and sorted by code point. */
    public static MultiLock of(List<String> keys) {
      MessageDigest sha256;
      try {
        sha256 = MessageDigest.getInstance("SHA-256");
      } catch (NoSuchAlgorithmException e) {
        throw new IllegalStateException("Every Java platform has SHA-256", e);
      }
      for (String key : keys) {
        sha256.update(key.getBytes(StandardCharsets.UTF_8));
        sha256.update((byte) 0);
      }
      return new MultiLock(keys.size(), HexFormat.of().formatHex(sha256.digest(), 0, 8));
    }
  }
}
