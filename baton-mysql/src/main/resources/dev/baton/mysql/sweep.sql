-- Deletes an expired entry that sweep-read.sql found, by its primary key, if it is still expired (a row at a time, as
-- a release deletes: no deadlock with one). No statement makes an expired entry live again (refresh.sql), and no
-- reader counts one, so deleting it changes what no one sees.
DELETE FROM {table} WHERE lock_key = ? AND entry_id = ? AND expires_at < UTC_TIMESTAMP(6)
