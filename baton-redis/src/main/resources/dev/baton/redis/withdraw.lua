-- Removes the record of a waiting writer that gives up (see acquire.lua), and wakes those it held back.
-- KEYS[1] the key's waiting-writers hash   ARGV[1] owner id   ARGV[2] the key's wake-up channel
-- ARGV[3] the command that publishes the wake-up: PUBLISH, or SPUBLISH on a cluster
-- Returns 1 if the record was there, 0 if not.
if redis.call('HDEL', KEYS[1], ARGV[1]) == 0 then
  return 0
end
local waiting = redis.call('HGET', KEYS[1], 'waiting')
if redis.call('HLEN', KEYS[1]) == (waiting and 1 or 0) then
  redis.call('DEL', KEYS[1])
elseif waiting then
  -- Whoever is still held back by another writer tries again and asks anew.
  redis.call('HDEL', KEYS[1], 'waiting')
end
if waiting then
  redis.call(ARGV[3], ARGV[2], 'withdrawn')
end
return 1
