-- Reads a lock without changing it: its exclusive holder, or else the oldest of its shared entries and permits that
-- has not lapsed (see acquire.lua), as list.lua reads each lock.
-- KEYS[1] the lock hash
-- Returns {owner or false, token or false, ms until it expires (-2 when absent), holder or false}.
local owner = redis.call('HGET', KEYS[1], 'owner')
if owner ~= '*' then
  return {owner, redis.call('HGET', KEYS[1], 'token'), redis.call('PTTL', KEYS[1]), redis.call('HGET', KEYS[1], 'holder')}
end
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local fields = redis.call('HGETALL', KEYS[1])
local oldest = {false, false, -2, false}
for i = 1, #fields, 2 do
  local token, expires, holder = string.match(fields[i + 1], '^token=(%d+)\nexpires=(%d+)\n(.*)$')
  local left = token and tonumber(expires) - now
  if token and left > 0 and (not oldest[2] or tonumber(token) < tonumber(oldest[2])) then
    oldest = {fields[i], token, left, holder}
  end
end
return oldest
