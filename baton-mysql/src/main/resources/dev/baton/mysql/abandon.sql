DELETE FROM {table} WHERE lock_key = ? AND owner_id = ?
