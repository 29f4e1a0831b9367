-- The lock table of Baton's locks; {table} stands for its name (baton_locks by default).
-- One row per queue entry: a holder or a waiter of lock_key, in arrival order by entry_id.
CREATE TABLE IF NOT EXISTS {table} (
  lock_key   VARBINARY(1024) NOT NULL,  -- the key's UTF-8 bytes: compared and ordered byte by byte, by no collation
  entry_id   BIGINT          NOT NULL,  -- from {table}_fencing: the arrival order and the fencing token
  owner_id   VARCHAR(255)    NOT NULL,  -- the acquisition's owner id
  holder     TEXT            NOT NULL,  -- who holds: owner, host, pid, thread, since (Baton's holder record)
  mode       VARCHAR(16)     NOT NULL,  -- EXCLUSIVE, SHARED or PERMIT
  capacity   INT             NOT NULL,  -- how many may hold at once: 1, or a semaphore's permits
  expires_at DATETIME(6)     NOT NULL,  -- UTC by the database's clock: an entry not renewed by then is gone
  contended  BOOLEAN         NOT NULL DEFAULT FALSE,  -- someone waited behind it: released, not kept, at a chain's end
  PRIMARY KEY (lock_key, entry_id),     -- a key's entries in queue order
  KEY {index} (expires_at)              -- the sweep of expired entries (sweep.sql)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin
