DELETE FROM {table} WHERE lock_key = ? AND entry_id = ?
