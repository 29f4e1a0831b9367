-- Extends the lock if this owner still holds it.
-- KEYS[1] the lock hash   ARGV[1] owner id   ARGV[2] expiry in ms
-- Returns 1 if extended, 0 if the store no longer held it for us.
if redis.call('HGET', KEYS[1], 'owner') ~= ARGV[1] then
  return 0
end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
