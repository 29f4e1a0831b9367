SELECT entry_id, owner_id, mode, capacity, holder, contended,
       (extract(epoch FROM expires_at - clock_timestamp()) * 1000)::bigint AS remaining_ms
FROM {table} WHERE lock_key = ? AND expires_at >= clock_timestamp() ORDER BY entry_id
