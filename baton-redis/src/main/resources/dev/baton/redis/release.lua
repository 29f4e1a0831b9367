-- Deletes the lock if this owner holds it, and wakes the waiters if any waited on this holding.
-- KEYS[1] the lock hash   ARGV[1] owner id   ARGV[2] the key's wake-up channel
-- Returns 1 if the lock was ours, 0 if the store no longer held it for us.
if redis.call('HGET', KEYS[1], 'owner') ~= ARGV[1] then
  return 0
end
local waiting = redis.call('HGET', KEYS[1], 'waiting')
redis.call('DEL', KEYS[1])
if waiting then
  redis.call('PUBLISH', ARGV[2], 'released')
end
return 1
