-- Marks the live entries ahead of a waiter's as waited for (see release.sql); only live ones, so that it marks no
-- entry the try did not read.
UPDATE {table} SET contended = true
WHERE lock_key = ? AND entry_id < ? AND NOT contended AND expires_at >= clock_timestamp()
