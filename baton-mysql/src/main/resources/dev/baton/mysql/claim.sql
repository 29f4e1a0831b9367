-- The first try of an acquire in one round trip (MySqlAttempt.claim), on the client's own pool, whose connections
-- allow several statements in one call (allowMultiQueries): the transaction of next-token.sql and insert.sql, which
-- adds our entry only if the key has no live entry from its floor on (KeyFloors), where every rule holds. Then the
-- number of entries added (1, or 0: the key has entries, and the try takes the full path) and the token, and the
-- commit. The token is read from the counter row the same transaction just raised, so a missing row adds nothing.
-- The NOT EXISTS reads what was committed before it, after the counter row's lock: the pool's sessions run at READ
-- COMMITTED (transactionIsolation), so that it sees every entry with a smaller token, as entries.sql does.
-- Expiries are compared with, and ours counted from, the time taken first (now.sql), before START TRANSACTION, which
-- on a Galera node waits for the cluster: the INSERT begins after that wait, and on a node that lags, a holder's
-- entry renewed on time elsewhere can look expired at the INSERT's own time although it is live at ours.
SET @baton_now = UTC_TIMESTAMP(6);
START TRANSACTION;
UPDATE {table}_fencing SET v = LAST_INSERT_ID(v + 1) WHERE id = 1;
INSERT INTO {table} (lock_key, entry_id, owner_id, holder, mode, capacity, expires_at)
SELECT ?, f.v, ?, ?, ?, ?, @baton_now + INTERVAL ? * 1000 MICROSECOND FROM {table}_fencing f
WHERE f.id = 1 AND NOT EXISTS (
  SELECT 1 FROM {table} WHERE lock_key = ? AND entry_id >= ? AND expires_at >= @baton_now);
SELECT ROW_COUNT(), LAST_INSERT_ID();
COMMIT
