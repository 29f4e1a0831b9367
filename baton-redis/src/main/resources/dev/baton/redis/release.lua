-- Deletes the lock if this owner holds it, and wakes the waiters if any waited on this holding. With an expiry,
-- ends a chain of hand-overs within the owner's process instead: keeps the lock for it if no one else waited.
-- KEYS[1] the lock hash   ARGV[1] owner id   ARGV[2] the key's wake-up channel   ARGV[3] (optional) expiry in ms
-- Returns 1 if the lock was ours and is deleted, 2 if it is kept, 0 if the store no longer held it for us.
if redis.call('HGET', KEYS[1], 'owner') ~= ARGV[1] then
  return 0
end
local waiting = redis.call('HGET', KEYS[1], 'waiting')
if ARGV[3] and not waiting then
  redis.call('PEXPIRE', KEYS[1], ARGV[3])
  return 2
end
redis.call('DEL', KEYS[1])
if waiting then
  redis.call('PUBLISH', ARGV[2], 'released')
end
return 1
