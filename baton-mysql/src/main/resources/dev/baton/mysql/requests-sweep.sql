-- Deletes up to ? requests that no one read in time: their client did not listen, or is gone.
DELETE FROM {table}_requests WHERE expires_at < UTC_TIMESTAMP(6) LIMIT ?
