-- Unlocks as Redisson's RLock unlocks its last hold: deletes the lock hash if this owner holds it and publishes
-- Redisson's unlock message, 0 (LockPubSub.UNLOCK_MESSAGE), on the lock's channel, which wakes Redisson's waiters
-- and Baton's alike. Published at every release, as Redisson does, since its waiters say nowhere that they wait.
-- KEYS[1] the lock hash   ARGV[1] owner id   ARGV[2] the lock's channel, redisson_lock__channel:{NAME}
-- Returns 1 if the lock was ours and is released, 0 if the store no longer held it for us.
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 then
  return 0
end
redis.call('DEL', KEYS[1])
redis.call('PUBLISH', ARGV[2], '0')
return 1
