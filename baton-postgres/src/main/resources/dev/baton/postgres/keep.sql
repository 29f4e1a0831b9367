UPDATE {table} SET expires_at = clock_timestamp() + ? * interval '1 millisecond'
WHERE lock_key = ? AND entry_id = ? AND expires_at >= clock_timestamp() AND NOT contended
  AND NOT EXISTS (SELECT 1 FROM {table} other
                  WHERE other.lock_key = ? AND other.entry_id <> ? AND other.expires_at >= clock_timestamp())
