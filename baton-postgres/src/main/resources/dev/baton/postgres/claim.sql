-- The first try of an acquire, in one round trip: both statements go to the server together, before one Sync, so
-- they run in one implicit transaction that holds the key's advisory lock (see queue-lock.sql) until it commits. The
-- insert's snapshot is taken after the lock is granted, so it sees every entry of the key committed before: it adds
-- ours, holding whatever its mode, only if the key has no live entry, and deletes the key's lapsed entries (with no
-- live entry, no one waits for them). No row back: the key is taken, and the try goes on as one transaction of
-- several statements.
SELECT pg_advisory_xact_lock(hashtext('{table}'), hashtext(?)), set_config('enable_bitmapscan', 'off', true);
WITH lapsed AS (DELETE FROM {table} WHERE lock_key = ? AND expires_at < clock_timestamp())
INSERT INTO {table} (lock_key, entry_id, owner_id, holder, mode, capacity, expires_at)
SELECT ?, nextval('{table}_fencing'), ?, ?, ?, ?, clock_timestamp() + ? * interval '1 millisecond'
WHERE NOT EXISTS (SELECT 1 FROM {table} WHERE lock_key = ? AND expires_at >= clock_timestamp())
ON CONFLICT (lock_key, owner_id) DO NOTHING
RETURNING entry_id
