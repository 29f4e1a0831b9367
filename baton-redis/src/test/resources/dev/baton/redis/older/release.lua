-- release.lua of a Baton that served mutexes only (as of ee8f24b): how an older client, still running during a rolling
-- upgrade, takes and releases a lock. RedisRollingUpgradeTest runs it beside the current scripts.
-- Deletes the lock if this owner holds it, and wakes the waiters if any waited on this holding. A fair release that
-- was waited on also yields the next turn: for a moment the lock is refused to the owner's own client, so that a
-- waiter of another client takes it instead of racing the releasing process's next thread. With a keep expiry, ends
-- a chain of hand-overs within the owner's process instead: keeps the lock for it if no one else waited.
-- KEYS[1] the lock hash   KEYS[2] the key's yield hash (see acquire.lua)
-- ARGV[1] owner id (CLIENT:SEQUENCE)   ARGV[2] the key's wake-up channel   ARGV[3] how long to yield in ms, 0 for
-- not at all   ARGV[4] the expiry in ms to keep the lock with if no one else waited, 0 to release in any case
-- Returns 1 if the lock was ours and is deleted, 2 if it is kept, 0 if the store no longer held it for us.
if redis.call('HGET', KEYS[1], 'owner') ~= ARGV[1] then
  return 0
end
local waiting = redis.call('HGET', KEYS[1], 'waiting')
if ARGV[4] ~= '0' and not waiting then
  redis.call('PEXPIRE', KEYS[1], ARGV[4])
  return 2
end
redis.call('DEL', KEYS[1])
if waiting then
  if ARGV[3] ~= '0' then
    redis.call('HSET', KEYS[2], 'client', string.match(ARGV[1], '^(.*):'))
    redis.call('PEXPIRE', KEYS[2], ARGV[3])
  end
  redis.call('PUBLISH', ARGV[2], 'released')
end
return 1
