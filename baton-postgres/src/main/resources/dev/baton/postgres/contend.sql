UPDATE {table} SET contended = true WHERE lock_key = ? AND entry_id < ? AND NOT contended
