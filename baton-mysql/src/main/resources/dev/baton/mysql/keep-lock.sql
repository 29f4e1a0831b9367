-- The first statement of keeping an entry at the end of a chain of local hand-overs (MySqlBackend): the counter row's
-- lock, which every transaction that adds an entry takes first (next-token.sql), so that no entry is added to the
-- key between the count of others (keep-others.sql) and the renewal of ours (refresh.sql).
SELECT v FROM {table}_fencing WHERE id = 1 FOR UPDATE
