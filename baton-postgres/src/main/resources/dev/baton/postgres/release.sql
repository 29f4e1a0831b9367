WITH gone AS (DELETE FROM {table} WHERE lock_key = ? AND entry_id = ? RETURNING lock_key, expires_at)
SELECT expires_at >= clock_timestamp() AS ours, pg_notify(?, lock_key) FROM gone
