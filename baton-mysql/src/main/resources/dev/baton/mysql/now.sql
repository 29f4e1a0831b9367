-- The first statement of a try's transaction that may add an entry (MySqlAttempt's full path; claim.sql sends it
-- first too): the time that the try compares the entries' expiries with, and counts its own entry's from, taken
-- before any statement of the transaction waits for the cluster on a Galera node (wsrep_sync_wait: CausalReads).
-- A SET that reads no table does not wait, and a statement's UTC_TIMESTAMP(6) is the time it began in any case.
-- The transaction's later statements begin after that wait, which on a node that lags can last longer than a holder's
-- entry had left; it covers what the cluster committed before it began, so the holder's renewals committed before
-- this time are there, and its entry, renewed on time, is live at this time, but may look expired at theirs.
-- A variable of the session: each statement that reads it (entries.sql and contend.sql run by the full path, which
-- Sql.atTryStart rewrites to it, insert.sql, claim.sql) runs after this one, in the same try.
SET @baton_now = UTC_TIMESTAMP(6)
