package dev.baton.redis;

import java.util.OptionalLong;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A counter that holders of one lock increment with a read-pause-write, fenced as a resource that checks fencing
 * tokens is: it remembers the highest token it has seen, on a read or a write, and refuses either with a lower one
 * (checking writes only would let a stale holder's write land between the next holder's read and write). A write
 * names the value it read: one that is taken although the counter moved since that read is a lost update.
 */
final class FencedCounter {
  private final ReentrantLock lock = new ReentrantLock();
  private long value;
  private long highest = Long.MIN_VALUE;
  private long accepted;
  private long lostUpdates;

  /** The value, or empty if a larger token than {@code token} was seen. */
  OptionalLong read(long token) {
    lock.lock();
    try {
      if (token < highest) {
        return OptionalLong.empty();
      }
      highest = token;
      return OptionalLong.of(value);
    } finally {
      lock.unlock();
    }
  }

  /** Writes {@code read + 1}, unless a larger token than {@code token} was seen: then it returns false. */
  boolean increment(long token, long read) {
    lock.lock();
    try {
      if (token < highest) {
        return false;
      }
      highest = token;
      if (read != value) {
        lostUpdates++;
      }
      value = read + 1;
      accepted++;
      return true;
    } finally {
      lock.unlock();
    }
  }

  long value() {
    lock.lock();
    try {
      return value;
    } finally {
      lock.unlock();
    }
  }

  /** How many increments were taken. */
  long accepted() {
    lock.lock();
    try {
      return accepted;
    } finally {
      lock.unlock();
    }
  }

  /** How many taken increments overwrote one their writer had not read. */
  long lostUpdates() {
    lock.lock();
    try {
      return lostUpdates;
    } finally {
      lock.unlock();
    }
  }
}
