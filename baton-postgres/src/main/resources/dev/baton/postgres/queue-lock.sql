-- The key's advisory lock, held to the end of the transaction, which orders the acquires of one key. It also turns
-- off sequential and bitmap scans for the rest of the transaction (see index-plans.sql for why).
SELECT pg_advisory_xact_lock(hashtext('{table}'), hashtext(?)),
       set_config('enable_seqscan', 'off', true), set_config('enable_bitmapscan', 'off', true)
