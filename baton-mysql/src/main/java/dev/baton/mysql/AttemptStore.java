package dev.baton.mysql;

import dev.baton.jdbc.JdbcCalls;
import dev.baton.spi.WakeUp;
import java.time.Duration;

/**
 * What a {@link MySqlAttempt} asks of the client beside its own statements: to be woken when this client frees a key,
 * how long to wait at most between two looks, and to leave a key's queue. The statements of its tries it runs itself,
 * through {@link JdbcCalls} on the lock table's {@link Sql}.
 */
interface AttemptStore {
  /** Wakes {@code wakeUp} whenever this client releases {@code key} or leaves its queue, until {@link #unregister}. */
  void register(String key, WakeUp wakeUp);

  /** Stops waking {@code wakeUp} for {@code key}. */
  void unregister(String key, WakeUp wakeUp);

  /** The longest a waiter waits before it looks again. */
  Duration maxPollInterval();

  /** Deletes the entry {@code ownerId} wrote for {@code key}, if any, and wakes the key's waiters in this client. */
  void deleteEntry(String key, String ownerId);
}
