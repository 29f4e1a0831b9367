-- Deletes up to ? expired entries of any key, such as a crashed holder's or waiter's (Sweeper). No statement makes an
-- expired entry live again (refresh.sql), and no reader counts one, so deleting it changes what no one sees.
DELETE FROM {table} WHERE expires_at < UTC_TIMESTAMP(6) ORDER BY expires_at LIMIT ?
