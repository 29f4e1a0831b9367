-- Reads no row: it fails as it is planned, with the SQLSTATE of a missing column (42703) or of a column of a type
-- Baton cannot use (42883, 42804), if the table is not of the shape create.sql makes.
SELECT lock_key || owner_id || holder || mode, entry_id + capacity, expires_at < clock_timestamp() AND NOT contended
FROM {table} WHERE false
