-- Keeps a held entry at the end of a chain of local hand-overs: a new expiry, only if it is live and no waiter has
-- marked it (contend.sql).
UPDATE {table} SET expires_at = UTC_TIMESTAMP(6) + INTERVAL ? * 1000 MICROSECOND
WHERE lock_key = ? AND entry_id = ? AND expires_at >= UTC_TIMESTAMP(6) AND NOT contended
