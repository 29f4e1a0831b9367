-- The entries in expiry order, for the sweep of expired ones (sweep.sql): a range scan of what has expired.
CREATE INDEX IF NOT EXISTS {index} ON {table} (expires_at)
