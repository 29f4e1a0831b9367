-- Reads no row: it fails with the error of a missing table (1146) or column (1054) if the lock table or its counter is
-- not of the shape create.sql and create-fencing.sql make.
SELECT t.lock_key, t.entry_id, t.owner_id, t.holder, t.mode, t.capacity, t.expires_at, t.contended, f.v
FROM {table} t JOIN {table}_fencing f ON f.id = 1 WHERE 1 = 0
