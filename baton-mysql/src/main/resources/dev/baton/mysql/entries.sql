-- The live entries of a key in queue order, from a token below which all of its entries are gone (KeyFloors; 0 for
-- the whole key): the range of the primary key starts there, past the released entries that InnoDB's purge has not
-- removed yet. Compared with the statement's own time, when it began, before it waited for the cluster on a Galera
-- node; the full path's transaction runs it with the try's time instead (now.sql, Sql.atTryStart), as its statements
-- begin after the transaction's first waited.
SELECT entry_id, owner_id, mode, capacity, holder, contended,
       TIMESTAMPDIFF(MICROSECOND, UTC_TIMESTAMP(6), expires_at) DIV 1000 AS remaining_ms
FROM {table} WHERE lock_key = ? AND entry_id >= ? AND expires_at >= UTC_TIMESTAMP(6) ORDER BY entry_id
