-- Rewrites the holder record of our entry (LockBackend.rewriteHolder), if it is still live: nothing else of the row.
-- A row gone or expired is left as it is: a rewrite never creates or revives an entry.
UPDATE {table} SET holder = ? WHERE lock_key = ? AND entry_id = ? AND expires_at >= clock_timestamp()
