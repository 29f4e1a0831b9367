SELECT DISTINCT lock_key COLLATE "C" AS lock_key FROM {table}
WHERE starts_with(lock_key, ?) AND expires_at >= clock_timestamp() ORDER BY 1 LIMIT ?
