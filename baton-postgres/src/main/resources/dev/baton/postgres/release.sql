-- A release, in one round trip: the key's advisory lock (see queue-lock.sql), then in one implicit transaction with it
-- the delete of our entry, which notifies the key's waiters only if the key has another entry. A waiter's entry is
-- either committed before the lock was granted here, and seen, or written after this commits, when its own read finds
-- our entry gone: so no waiter misses its notification, and a release with no one waiting sends none (a notifying
-- commit takes a lock of the whole database in turn).
SELECT pg_advisory_xact_lock(hashtext('{table}'), hashtext(?)), set_config('enable_bitmapscan', 'off', true);
WITH gone AS (DELETE FROM {table} WHERE lock_key = ? AND entry_id = ? RETURNING lock_key, entry_id, expires_at)
SELECT expires_at >= clock_timestamp() AS ours,
       CASE WHEN EXISTS (SELECT 1 FROM {table} other WHERE other.lock_key = gone.lock_key
                         AND other.entry_id <> gone.entry_id) THEN pg_notify(?, lock_key) END
FROM gone
