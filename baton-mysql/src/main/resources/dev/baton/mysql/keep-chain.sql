-- Keeps a held entry at the end of a chain of local hand-overs in one round trip (MySqlBackend.keepUnlessOthersWait),
-- on the client's own pool, whose connections allow several statements in one call (allowMultiQueries): the
-- transaction of keep-lock.sql, keep-others.sql and keep.sql, the count of others kept in a session variable that the
-- statement before the UPDATE sets. Its last result is the number of entries kept: 1, or 0 (another entry is live, or
-- ours expired or was marked as waited for). A statement that fails ends the call there, its transaction left open
-- for MySqlBackend to roll back. Parameters: the key and our token (the count), the ttl, the key and our token (ours).
START TRANSACTION;
SELECT v FROM {table}_fencing WHERE id = 1 FOR UPDATE;
SELECT count(*) INTO @baton_others FROM {table} WHERE lock_key = ? AND entry_id <> ? AND expires_at >= UTC_TIMESTAMP(6);
UPDATE {table} SET expires_at = UTC_TIMESTAMP(6) + INTERVAL ? * 1000 MICROSECOND
WHERE lock_key = ? AND entry_id = ? AND expires_at >= UTC_TIMESTAMP(6) AND NOT contended AND @baton_others = 0;
SELECT ROW_COUNT();
COMMIT
