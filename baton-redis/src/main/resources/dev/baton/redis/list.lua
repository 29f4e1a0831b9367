-- Reads the locks of a list without changing them, all at one moment, each as status.lua reads a lock: its exclusive
-- holder, or else the oldest of its shared entries and permits that has not lapsed (see acquire.lua).
-- KEYS the lock hashes, as SCAN found them
-- Returns four values per key, in the order of KEYS: {owner or false, token or false, ms until it expires (-2 when
-- absent), holder or false}. A key released since the SCAN, or holding something other than a hash (not a lock
-- that Baton wrote), reads as absent: false, false, -2, false.
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)

-- The oldest live shared entry or permit of a hash whose owner is the marker '*'.
local function oldestEntry(key)
  local fields = redis.call('HGETALL', key)
  local oldest = {false, false, -2, false}
  for i = 1, #fields, 2 do
    local token, expires, holder = string.match(fields[i + 1], '^token=(%d+)\nexpires=(%d+)\n(.*)$')
    local left = token and tonumber(expires) - now
    if token and left > 0 and (not oldest[2] or tonumber(token) < tonumber(oldest[2])) then
      oldest = {fields[i], token, left, holder}
    end
  end
  return oldest
end

local locks = {}
for _, key in ipairs(KEYS) do
  local lock = {false, false, -2, false}
  if redis.call('TYPE', key).ok == 'hash' then
    local fields = redis.call('HMGET', key, 'owner', 'token', 'holder')
    if fields[1] == '*' then
      lock = oldestEntry(key)
    else
      lock = {fields[1], fields[2], redis.call('PTTL', key), fields[3]}
    end
  end
  for _, value in ipairs(lock) do
    locks[#locks + 1] = value
  end
end
return locks
