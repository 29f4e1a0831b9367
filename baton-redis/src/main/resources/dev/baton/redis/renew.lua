-- Extends this owner's entry of the lock if it still holds one: an exclusive holding (the hash's expiry), or a
-- shared entry or permit (its own expiry, and the hash's if that is sooner; see acquire.lua). A shared entry or
-- permit that expired is gone, whether or not a script has deleted it yet.
-- KEYS[1] the lock hash   ARGV[1] owner id   ARGV[2] expiry in ms
-- Returns 1 if extended, 0 if the store no longer held it for us.
local owner = redis.call('HGET', KEYS[1], 'owner')
if owner == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
if owner ~= '*' then
  return 0
end
local entry = redis.call('HGET', KEYS[1], ARGV[1])
if not entry then
  return 0
end
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local token, expires, holder = string.match(entry, '^token=(%d+)\nexpires=(%d+)\n(.*)$')
if tonumber(expires) <= now then
  redis.call('HDEL', KEYS[1], ARGV[1])
  return 0
end
redis.call('HSET', KEYS[1], ARGV[1], 'token=' .. token .. '\nexpires=' .. string.format('%d', now + tonumber(ARGV[2]))
  .. '\n' .. holder)
if redis.call('PTTL', KEYS[1]) < tonumber(ARGV[2]) then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 1
