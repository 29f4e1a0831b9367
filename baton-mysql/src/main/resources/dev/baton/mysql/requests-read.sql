-- A listening client's poll: the requests addressed to client ?, oldest first, up to ? of them.
SELECT request_id, owner_id, lock_key FROM {table}_requests WHERE client_id = ? ORDER BY request_id LIMIT ?
