-- The table, sequence and index of Baton's locks; {table} stands for the table's name (baton_locks by default), {index}
-- for the index's, which lives in the table's schema (baton_locks_expires_at).
-- One row per queue entry: a holder or a waiter of lock_key, in arrival order by entry_id.
CREATE TABLE IF NOT EXISTS {table} (
  lock_key   text        NOT NULL,
  entry_id   bigint      NOT NULL,  -- from {table}_fencing: the arrival order and the fencing token
  owner_id   text        NOT NULL,  -- the acquisition's owner id
  holder     text        NOT NULL,  -- who holds: owner, host, pid, thread, since (Baton's holder record)
  mode       text        NOT NULL,  -- EXCLUSIVE, SHARED or PERMIT
  capacity   integer     NOT NULL,  -- how many may hold at once: 1, or a semaphore's permits
  expires_at timestamptz NOT NULL,  -- the database's clock: an entry not renewed by then is gone
  contended  boolean     NOT NULL DEFAULT false,  -- someone waited behind it: released, not kept, at a chain's end
  PRIMARY KEY (lock_key, entry_id)  -- a key's entries in queue order
);
CREATE SEQUENCE IF NOT EXISTS {table}_fencing;
