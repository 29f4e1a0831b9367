-- A release: deletes our entry if it is still live (one row: it was ours until now). An expired one, which no one
-- counts any more, is deleted by release-expired.sql.
DELETE FROM {table} WHERE lock_key = ? AND entry_id = ? AND expires_at >= UTC_TIMESTAMP(6)
