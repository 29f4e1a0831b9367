package dev.baton.testkit;

import dev.baton.torture.LockClientFactory;
import java.time.Duration;
import java.util.List;

/**
 * A {@link LockHolderMain} running in its own JVM, holding one lock until {@link #kill()} ends it the way a
 * crash would: SIGKILL, no release, no more renewals. Killed at JVM exit if a test forgot it.
 */
public final class ChildJvm implements AutoCloseable {
  private static final Duration HELD_TIMEOUT = Duration.ofSeconds(20);

  private final ForkedMain child;
  private final long fencingToken;

  private ChildJvm(ForkedMain child) {
    this.child = child;
    this.fencingToken = Long.parseLong(child.answer());
  }

  /**
   * Starts a JVM that connects with {@code factory} to {@code target} and acquires {@code key} with this
   * ttl, and waits up to 20 s until it holds the lock.
   *
   * @throws IllegalStateException if the child failed or did not hold the lock in time; the message quotes
   *     its output, and the child is killed
   */
  public static ChildJvm holdingLock(
      Class<? extends LockClientFactory> factory, String target, String key, Duration ttl)
      throws InterruptedException {
    return new ChildJvm(ForkedMain.start(LockHolderMain.class,
        List.of(factory.getName(), target, key, Long.toString(ttl.toMillis())),
        LockHolderMain.HELD + " ", HELD_TIMEOUT, "hold '" + key + "'"));
  }

  /** The fencing token of the child's lease. */
  public long fencingToken() {
    return fencingToken;
  }

  /** The child's process id. */
  public long pid() {
    return child.pid();
  }

  /** Whether the child still runs. */
  public boolean isAlive() {
    return child.isAlive();
  }

  /** Kills the child with SIGKILL and waits until it is gone. Does nothing if it already is. */
  public void kill() {
    child.kill();
  }

  /** Same as {@link #kill()}. */
  @Override
  public void close() {
    kill();
  }
}
