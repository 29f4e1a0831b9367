-- Sets a live entry's expiry ? milliseconds from now (a renewal, a holder's first expiry, a waiter's next ttl). An
-- expired entry stays expired: the statement finds no row, and its holder or waiter counts it as gone.
UPDATE {table} SET expires_at = UTC_TIMESTAMP(6) + INTERVAL ? * 1000 MICROSECOND
WHERE lock_key = ? AND entry_id = ? AND expires_at >= UTC_TIMESTAMP(6)
