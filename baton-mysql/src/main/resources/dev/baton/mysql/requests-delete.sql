-- A request read by its client: delivered, so gone.
DELETE FROM {table}_requests WHERE request_id = ?
