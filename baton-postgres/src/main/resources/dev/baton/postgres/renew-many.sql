-- The renewals of many entries in one statement (Renewals): each (lock_key, entry_id) gets a new expiry ms
-- milliseconds from now by the database's clock, if its row is still there and has not expired. The rows renewed come
-- back; an entry asked for twice is renewed once.
UPDATE {table} t SET expires_at = clock_timestamp() + r.ms * interval '1 millisecond'
FROM unnest(?::text[], ?::bigint[], ?::bigint[]) AS r(lock_key, entry_id, ms)
WHERE t.lock_key = r.lock_key AND t.entry_id = r.entry_id AND t.expires_at >= clock_timestamp()
RETURNING t.lock_key, t.entry_id
