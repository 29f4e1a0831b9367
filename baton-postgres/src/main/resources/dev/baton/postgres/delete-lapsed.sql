WITH gone AS (DELETE FROM {table} WHERE lock_key = ? AND expires_at < clock_timestamp() RETURNING lock_key)
SELECT pg_notify(?, lock_key) FROM (SELECT lock_key FROM gone LIMIT 1) lapsed
