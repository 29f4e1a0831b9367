-- The key's live entries other than ours: none means that no one waits for ours.
SELECT count(*) FROM {table} WHERE lock_key = ? AND entry_id <> ? AND expires_at >= UTC_TIMESTAMP(6)
