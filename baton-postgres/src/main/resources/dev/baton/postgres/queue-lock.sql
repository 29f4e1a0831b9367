-- The key's advisory lock, held to the end of the transaction, which orders the acquires of one key. It also turns
-- off sequential and bitmap scans for the rest of the transaction, so that its statements read the table through its
-- primary key whatever the statistics say. Every acquire leaves a deleted row behind. Right after autovacuum has
-- truncated the table, the planner sees it empty and caches plans that read every page of the table, dead rows and
-- all, until the next autovacuum a minute later; a bitmap scan re-reads every deleted row of the key. Only a plain
-- index scan marks the deleted rows it meets as dead in the index, so that later reads skip them.
SELECT pg_advisory_xact_lock(hashtext('{table}'), hashtext(?)),
       set_config('enable_seqscan', 'off', true), set_config('enable_bitmapscan', 'off', true)
