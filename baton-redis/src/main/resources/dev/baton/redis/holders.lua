-- Lists the owner ids that hold the lock now, for a request to release it (see RedisBackend.requestRelease): the
-- exclusive holder, or each live shared entry or permit (the fields named by an owner id, whose value holds
-- expires=MS, server ms since the epoch; see acquire.lua). Reads only.
-- KEYS[1] the lock hash
-- Returns the owner ids, none if the lock is free.
local owner = redis.call('HGET', KEYS[1], 'owner')
if not owner then
  return {}
end
if owner ~= '*' then
  return {owner}
end
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local fields = redis.call('HGETALL', KEYS[1])
local holders = {}
for i = 1, #fields, 2 do
  if string.find(fields[i], ':', 1, true) then
    local expires = tonumber(string.match(fields[i + 1], 'expires=(%d+)'))
    if expires and expires > now then
      holders[#holders + 1] = fields[i]
    end
  end
end
return holders
