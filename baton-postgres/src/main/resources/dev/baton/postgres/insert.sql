INSERT INTO {table} (lock_key, entry_id, owner_id, holder, mode, capacity, expires_at)
VALUES (?, nextval('{table}_fencing'), ?, ?, ?, ?, clock_timestamp() + ? * interval '1 millisecond')
ON CONFLICT (lock_key, owner_id) DO NOTHING
RETURNING entry_id
