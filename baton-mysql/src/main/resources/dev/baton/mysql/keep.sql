-- Keeps a held entry at the end of a chain of local hand-overs (MySqlBackend.keepUnlessOthersWait): a new expiry ?
-- milliseconds from now, only if no waiter has marked it (contend.sql: every client that waits for an entry marks it
-- before it waits) and it has at least ? microseconds left, a margin within which the client must have the answer to
-- count on it. The statement compares with the time it began, and may then wait, for a row lock or for the cluster,
-- before it writes: an answer within the margin means it wrote before the entry expired, never making live again an
-- entry another client counted gone.
UPDATE {table} SET expires_at = UTC_TIMESTAMP(6) + INTERVAL ? * 1000 MICROSECOND
WHERE lock_key = ? AND entry_id = ? AND expires_at >= UTC_TIMESTAMP(6) + INTERVAL ? MICROSECOND AND NOT contended
