-- Extends this owner's lock as Redisson's watchdog extends its own (LockTask): the hash's expiry, if the owner's
-- field is still in it.
-- KEYS[1] the lock hash   ARGV[1] owner id   ARGV[2] expiry in ms
-- Returns 1 if extended, 0 if the store no longer held it for us.
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
return 0
