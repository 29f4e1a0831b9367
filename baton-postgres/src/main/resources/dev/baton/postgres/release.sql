-- A release, in one statement: the delete of our entry, which notifies the key's waiters if a waiter marked it as
-- contended (contend.sql) or the key has another entry. Every waiter marks the entries it waits for in its try's
-- transaction, before it commits and waits: if the mark comes first, the delete sees it (it deletes the newest
-- version of the row, after waiting for the marking transaction to end if it is under way); if the delete comes
-- first, the mark finds the row gone and the waiter looks again at once instead of waiting. So no waiter misses its
-- notification, and a release with no one waiting sends none (a notifying commit takes a lock of the whole database in
-- turn).
WITH gone AS (DELETE FROM {table} WHERE lock_key = ? AND entry_id = ?
              RETURNING lock_key, entry_id, expires_at, contended)
SELECT expires_at >= clock_timestamp() AS ours,
       CASE WHEN contended OR EXISTS (SELECT 1 FROM {table} other WHERE other.lock_key = gone.lock_key
                                      AND other.entry_id <> gone.entry_id) THEN pg_notify(?, lock_key) END
FROM gone
