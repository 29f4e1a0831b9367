-- Adds our entry at the end of the queue with the token of next-token.sql, expiring ? milliseconds from the try's
-- start (now.sql): a holder's client counts its lease from before it sent the try, so from no later than that.
INSERT INTO {table} (lock_key, entry_id, owner_id, holder, mode, capacity, expires_at)
VALUES (?, ?, ?, ?, ?, ?, @baton_now + INTERVAL ? * 1000 MICROSECOND)
