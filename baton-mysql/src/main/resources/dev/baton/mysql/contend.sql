-- Marks the live entries ahead of a waiter's as waited for, so that their holders release them at the end of a chain
-- of local hand-overs instead of keeping them (keep.sql); only entries the waiter read unmarked. Live at the time the
-- waiter's read compared with: the statement's own, or the try's in the full path (now.sql, Sql.atTryStart).
UPDATE {table} SET contended = TRUE
WHERE lock_key = ? AND entry_id < ? AND NOT contended AND expires_at >= UTC_TIMESTAMP(6)
