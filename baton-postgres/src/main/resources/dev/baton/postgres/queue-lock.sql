-- The key's advisory lock, held to the end of the transaction, which orders the acquires of one key. It also turns
-- off bitmap scans for the rest of the transaction: every acquire leaves a deleted row behind, which only a plain
-- index scan marks as dead in the index, so that later reads of the key skip it; a bitmap scan, which the planner
-- prefers for a key of few rows, reads every deleted row of the key again until autovacuum comes by.
SELECT pg_advisory_xact_lock(hashtext('{table}'), hashtext(?)), set_config('enable_bitmapscan', 'off', true)
