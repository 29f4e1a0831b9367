-- The first step of a sweep (MySqlBackend.sweeper): up to ? expired entries of any key, such as a crashed holder's or
-- waiter's, read without locks; sweep.sql then deletes each by its primary key. A DELETE that searched the expiry
-- index itself would lock index records first and rows after, the other way round from a release's DELETE, and lock
-- the first live entry past the range too: with a release of that entry at the same moment, a deadlock, which the
-- driver logs as a warning although the sweep only tries again in its next round.
SELECT lock_key, entry_id FROM {table} WHERE expires_at < UTC_TIMESTAMP(6) ORDER BY expires_at LIMIT ?
