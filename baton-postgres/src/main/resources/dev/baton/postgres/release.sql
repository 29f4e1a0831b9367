-- A release, in one statement: the delete of our entry, which notifies the key's waiters if a waiter marked it as
-- contended (contend.sql). Every waiter marks the live entries ahead of its own, which are all it can wait for, in its
-- try's transaction, before it commits and waits: if the mark comes first, the delete sees it (it deletes the newest
-- version of the row, after waiting for the marking transaction to end if it is under way); if the delete comes first,
-- the mark finds the row gone and the waiter looks again at once instead of waiting. So no waiter misses its
-- notification, and a release that no one waits for sends none (a notifying commit takes a lock of the whole database
-- in turn) and reads nothing but its own row. Its plan is left to the planner: the settings of queue-lock.sql, sent
-- before it in the same round trip, cost an uncontended cycle more than the sequential scans they avoid after a vacuum.
WITH gone AS (DELETE FROM {table} WHERE lock_key = ? AND entry_id = ? RETURNING lock_key, expires_at, contended)
SELECT expires_at >= clock_timestamp() AS ours, CASE WHEN contended THEN pg_notify(?, lock_key) END
FROM gone
