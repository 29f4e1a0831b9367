-- The first try of an acquire, in one round trip, sent right after queue-lock.sql: both statements go to the server
-- together, before one Sync, so they run in one implicit transaction that holds the key's advisory lock until it
-- commits. The insert's snapshot is taken after the lock is granted, so it sees every entry of the key committed
-- before: it adds ours, holding whatever its mode, only if the key has no entry at all. Where the key has one, live or
-- expired, no row comes back and the try goes on as one transaction of several statements, which deletes the expired
-- ones: an uncontended claim reads the key once and writes one row.
INSERT INTO {table} (lock_key, entry_id, owner_id, holder, mode, capacity, expires_at)
SELECT ?, nextval('{table}_fencing'), ?, ?, ?, ?, clock_timestamp() + ? * interval '1 millisecond'
WHERE NOT EXISTS (SELECT 1 FROM {table} WHERE lock_key = ?)
RETURNING entry_id
