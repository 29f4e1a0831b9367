WITH gone AS (DELETE FROM {table} WHERE lock_key = ? AND owner_id = ? RETURNING lock_key)
SELECT pg_notify(?, lock_key) FROM gone
