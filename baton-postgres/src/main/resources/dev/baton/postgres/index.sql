-- The entries in expiry order, for the sweep of lapsed ones (sweep.sql): a range scan of what has lapsed.
CREATE INDEX IF NOT EXISTS {index} ON {table} (expires_at)
