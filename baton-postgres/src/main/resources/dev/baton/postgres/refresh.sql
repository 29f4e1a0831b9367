UPDATE {table} SET expires_at = clock_timestamp() + ? * interval '1 millisecond' WHERE lock_key = ? AND entry_id = ?
