-- Adds our entry after the key's advisory lock, unless it is there already (it expired as queue.sql read the key: not
-- deleted, not read). Under the lock no other statement adds an entry of the key, so reading first is as good as a
-- unique index on (lock_key, owner_id), which the table does not need.
INSERT INTO {table} (lock_key, entry_id, owner_id, holder, mode, capacity, expires_at)
SELECT ?, nextval('{table}_fencing'), ?, ?, ?, ?, clock_timestamp() + ? * interval '1 millisecond'
WHERE NOT EXISTS (SELECT 1 FROM {table} WHERE lock_key = ? AND owner_id = ?)
RETURNING entry_id
