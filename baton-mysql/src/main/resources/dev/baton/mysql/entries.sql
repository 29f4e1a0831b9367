SELECT entry_id, owner_id, mode, capacity, holder, contended,
       TIMESTAMPDIFF(MICROSECOND, UTC_TIMESTAMP(6), expires_at) DIV 1000 AS remaining_ms
FROM {table} WHERE lock_key = ? AND expires_at >= UTC_TIMESTAMP(6) ORDER BY entry_id
