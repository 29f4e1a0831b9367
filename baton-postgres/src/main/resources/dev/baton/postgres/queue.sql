-- One step of an acquire, after the key's advisory lock: deletes the key's expired entries, notifying the key's
-- waiters, and reads the live entries in queue order. (The reference to expired only makes its order plain: a DELETE in
-- WITH runs to completion in any case.)
WITH expired AS (
  DELETE FROM {table} WHERE lock_key = ? AND expires_at < clock_timestamp() RETURNING pg_notify(?, lock_key)
)
SELECT entry_id, owner_id, mode, capacity, holder, contended,
       (extract(epoch FROM expires_at - clock_timestamp()) * 1000)::bigint AS remaining_ms
FROM {table} WHERE lock_key = ? AND expires_at >= clock_timestamp() AND (SELECT count(*) FROM expired) >= 0
ORDER BY entry_id
