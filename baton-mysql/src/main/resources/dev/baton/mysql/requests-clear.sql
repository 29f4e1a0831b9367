-- As a client starts listening: the requests addressed to it before are not replayed.
DELETE FROM {table}_requests WHERE client_id = ?
