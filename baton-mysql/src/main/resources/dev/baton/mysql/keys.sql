-- The keys with a live entry that start with the prefix (given twice: the index's range starts at it), in byte order,
-- which is the keys' code-point order in UTF-8.
SELECT DISTINCT lock_key FROM {table}
WHERE lock_key >= ? AND LEFT(lock_key, LENGTH(?)) = ? AND expires_at >= UTC_TIMESTAMP(6)
ORDER BY lock_key LIMIT ?
