-- The first try of an acquire in one statement (MySqlAttempt.claim) on a connection that runs one statement a call,
-- such as an application's DataSource, on MariaDB: claim.sql's transaction inside a compound statement, which MariaDB
-- runs whole as one statement (BEGIN NOT ATOMIC; MySQL has none outside stored programs: ClaimStatement). It runs at
-- the session's isolation level, the application's, and sets none: a SET TRANSACTION inside a compound statement
-- outlives its transaction on MariaDB 10.11, and would change the isolation of the application's later transactions
-- on the connection. The NOT EXISTS sees every entry committed before it at any level, after the counter row's lock:
-- at READ COMMITTED as entries.sql does, and above it because InnoDB reads the tables of an INSERT ... SELECT with
-- shared locks, which read the latest committed rows (and hold them to the commit, which follows at once).
-- Its one result is the number of entries added (1, or 0: the key has entries, and the try takes the full path) and
-- the token. A statement that fails ends the block there, its transaction left open for MySqlAttempt to roll back, as
-- with claim.sql.
BEGIN NOT ATOMIC
  START TRANSACTION;
  UPDATE {table}_fencing SET v = LAST_INSERT_ID(v + 1) WHERE id = 1;
  INSERT INTO {table} (lock_key, entry_id, owner_id, holder, mode, capacity, expires_at)
  SELECT ?, f.v, ?, ?, ?, ?, UTC_TIMESTAMP(6) + INTERVAL ? * 1000 MICROSECOND FROM {table}_fencing f
  WHERE f.id = 1 AND NOT EXISTS (
    SELECT 1 FROM {table} WHERE lock_key = ? AND entry_id >= ? AND expires_at >= UTC_TIMESTAMP(6));
  SELECT ROW_COUNT(), LAST_INSERT_ID();
  COMMIT;
END
