-- Adds our entry at the end of the queue with the token of next-token.sql, expiring ? milliseconds from now.
INSERT INTO {table} (lock_key, entry_id, owner_id, holder, mode, capacity, expires_at)
VALUES (?, ?, ?, ?, ?, ?, UTC_TIMESTAMP(6) + INTERVAL ? * 1000 MICROSECOND)
