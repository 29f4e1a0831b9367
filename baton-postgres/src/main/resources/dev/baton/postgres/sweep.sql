-- Deletes up to ? expired entries of any key, such as a crashed holder's or waiter's, which no acquire of their key
-- would otherwise delete (queue.sql), and notifies the waiters of the keys where a waiter had marked a deleted entry
-- (contend.sql). Every client runs it in the background (Sweeper), never on the path of an acquire or a release.
-- An entry has expired as the acquire counts it, but by now(), the statement's start, which is no later than
-- clock_timestamp(): no live entry is deleted, and the index on expires_at makes it a range scan. It takes the
-- advisory lock of each key it deletes from as an acquire does (queue-lock.sql), but only where no one holds it and
-- without waiting, so it deletes nothing an acquire is reading, and clients that sweep at once skip each other's
-- keys. Those locks are held to the statement's end, hence the small batch.
-- The delete finds the rows read by their physical address (a TID scan, never a scan of the table): under the key's
-- advisory lock no one changes an expired row (renewals and marks change only live ones), so the address stays theirs;
-- the expiry is tested again all the same.
WITH expired AS MATERIALIZED (
  SELECT ctid FROM {table}
  WHERE expires_at < now() AND pg_try_advisory_xact_lock(hashtext('{table}'), hashtext(lock_key))
  LIMIT ?
), gone AS (
  DELETE FROM {table} WHERE ctid = ANY (ARRAY(SELECT ctid FROM expired)) AND expires_at < now()
  RETURNING lock_key, contended
)
SELECT (SELECT count(*) FROM gone) AS deleted,
       (SELECT count(*) FROM (SELECT pg_notify(?, lock_key) FROM gone WHERE contended GROUP BY lock_key) woken)
         AS notified
