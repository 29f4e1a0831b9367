-- The first try of an acquire in one statement (MySqlAttempt.claim) on a connection that runs one statement a call,
-- such as an application's DataSource, on MariaDB: claim.sql's transaction inside a compound statement, which MariaDB
-- runs whole as one statement (BEGIN NOT ATOMIC; MySQL has none outside stored programs: ClaimStatement).
-- It runs at the session's isolation level, the application's (REPEATABLE READ by default), and sets none: a SET
-- TRANSACTION inside a compound statement outlives its transaction on MariaDB 10.11, and would change the isolation
-- of the application's later transactions on the connection. So the key's entries are read first, by a plain SELECT
-- (parameters: the key and its floor, KeyFloors), which reads without locks at READ COMMITTED and REPEATABLE READ
-- alike and sees every entry committed before it: its snapshot is taken at that read, after the counter row's lock.
-- The INSERT ... SELECT (our entry's parameters, in insert.sql's order without the token) reads only the counter row,
-- which the transaction holds: one that read the lock table would lock what it reads above READ COMMITTED, gaps too,
-- and deadlock with the sweep's DELETE.
-- Its one result is the number of entries added (1, or 0: the key has entries, and the try takes the full path) and
-- the token. A statement that fails ends the block there, its transaction left open for MySqlAttempt to roll back, as
-- with claim.sql. Expiries are compared with, and ours counted from, the time declared first (began), before
-- START TRANSACTION, which on a Galera node waits for the cluster, as claim.sql's and now.sql's; a variable of the
-- block, which leaves nothing on the application's session.
BEGIN NOT ATOMIC
  DECLARE began DATETIME(6) DEFAULT UTC_TIMESTAMP(6);
  DECLARE taken BOOLEAN;
  START TRANSACTION;
  UPDATE {table}_fencing SET v = LAST_INSERT_ID(v + 1) WHERE id = 1;
  SELECT EXISTS (
    SELECT 1 FROM {table} WHERE lock_key = ? AND entry_id >= ? AND expires_at >= began
  ) INTO taken;
  INSERT INTO {table} (lock_key, entry_id, owner_id, holder, mode, capacity, expires_at)
  SELECT ?, f.v, ?, ?, ?, ?, began + INTERVAL ? * 1000 MICROSECOND
  FROM {table}_fencing f WHERE f.id = 1 AND NOT taken;
  SELECT ROW_COUNT(), LAST_INSERT_ID();
  COMMIT;
END
