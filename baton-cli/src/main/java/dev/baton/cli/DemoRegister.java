package dev.baton.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * What the demo's workers share: a plain counter that each updates with a read, a pause and a write, and
 * the fencing tokens in the order the writes happened. Without the lock, the pause makes updates get
 * lost; under it, the counter equals the number of acquisitions and the tokens only grow.
 */
final class DemoRegister {
  private final long pauseNanos;
  private final List<Long> tokens = new ArrayList<>();
  private long counter;

  DemoRegister(long pauseNanos) {
    this.pauseNanos = pauseNanos;
  }

  /** Call while holding the lock. */
  void update(long fencingToken) {
    long read = counter;
    LockSupport.parkNanos(pauseNanos);
    counter = read + 1;
    tokens.add(fencingToken);
  }

  /** Read after every worker has stopped. */
  long counter() {
    return counter;
  }

  /** Read after every worker has stopped. */
  List<Long> tokens() {
    return tokens;
  }
}
