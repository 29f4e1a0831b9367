-- Whether the table of requests to release exists (1 if it does), in the lock table's database or else the
-- connection's.
SELECT count(*) FROM information_schema.tables WHERE table_schema = COALESCE(?, DATABASE()) AND table_name = ?
