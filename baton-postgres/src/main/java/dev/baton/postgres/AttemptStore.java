package dev.baton.postgres;

import dev.baton.jdbc.JdbcCalls;
import dev.baton.spi.WakeUp;
import java.time.Duration;

/**
 * What a {@link PostgresAttempt} asks of the client beside its own statements: to be woken by a key's notifications,
 * whether the user may acquire, how long to wait without one, and to leave a key's queue. The statements of its tries
 * it runs itself, through {@link JdbcCalls} on the lock table's {@link Sql}.
 */
interface AttemptStore {
  /**
   * Wakes {@code wakeUp} on every notification for {@code key} (a release, an abandoned wait, the removal of an expired
   * entry: {@link Notifications}) until {@link #unregister}.
   */
  void register(String key, WakeUp wakeUp);

  /** Stops waking {@code wakeUp} for {@code key}. */
  void unregister(String key, WakeUp wakeUp);

  /**
   * Returns if the user may acquire ({@link LockGrants}).
   *
   * @throws dev.baton.PermissionDeniedException naming {@code what} was refused and what to grant, if the user lacks a
   *     privilege
   */
  void checkMayAcquire(String what);

  /** The longest a waiter waits for a notification before it looks again by itself. */
  Duration fallbackWait();

  /** Deletes the entry {@code ownerId} wrote for {@code key}, if any, and wakes the key's waiters. */
  void deleteEntry(String key, String ownerId);
}
