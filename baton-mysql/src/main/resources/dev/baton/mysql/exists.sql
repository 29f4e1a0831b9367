-- How many of the lock table and its counter exist (2 when both do), in the table's database or else the connection's.
SELECT count(*) FROM information_schema.tables
WHERE table_schema = COALESCE(?, DATABASE()) AND table_name IN (?, ?)
