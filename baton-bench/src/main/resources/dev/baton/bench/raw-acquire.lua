-- The least a Redis lock can do to acquire: set-if-absent with an owner and an expiry.
-- KEYS[1] the lock   ARGV[1] owner id   ARGV[2] expiry in ms
return redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2])
