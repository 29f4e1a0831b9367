-- Reads locks without changing them, all at one moment: each lock's exclusive holder, or else the oldest of its
-- shared entries and permits that has not expired (see acquire.lua) and how many of them there are.
-- KEYS the lock hashes: the one of a status, or those SCAN found for a list
-- ARGV[1] 'status' to refuse a key holding something other than a hash with Redis's WRONGTYPE error, as any other
--         script on that key would; otherwise such a key (not a lock that Baton wrote) reads as absent
-- Returns seven values per key, in the order of KEYS: {owner or false, token or false, ms until it expires (-2 when
-- absent), holder or false, mode (EXCLUSIVE, SHARED or PERMIT; false when absent), how many hold, the number of
-- permits or 0}. A key released since the SCAN reads as absent: false, false, -2, false, false, 0, 0.
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local ABSENT = {false, false, -2, false, false, 0, 0}

-- The oldest live shared entry or permit of a hash whose owner is the marker '*', with the count of live ones.
local function sharedEntries(key)
  local fields = redis.call('HGETALL', key)
  local oldest = {false, false, -2, false}
  local live = 0
  local permits = 0
  for i = 1, #fields, 2 do
    local token, expires, holder = string.match(fields[i + 1], '^token=(%d+)\nexpires=(%d+)\n(.*)$')
    local left = token and tonumber(expires) - now
    if token and left > 0 then
      live = live + 1
      if not oldest[2] or tonumber(token) < tonumber(oldest[2]) then
        oldest = {fields[i], token, left, holder}
      end
    elseif fields[i] == 'permits' then
      permits = tonumber(fields[i + 1])
    end
  end
  if live == 0 then
    return ABSENT
  end
  return {oldest[1], oldest[2], oldest[3], oldest[4], permits > 0 and 'PERMIT' or 'SHARED', live, permits}
end

local locks = {}
for _, key in ipairs(KEYS) do
  local lock = ABSENT
  local type = redis.call('TYPE', key).ok
  if type == 'hash' then
    local fields = redis.call('HMGET', key, 'owner', 'token', 'holder')
    if fields[1] == '*' then
      lock = sharedEntries(key)
    elseif fields[1] then
      lock = {fields[1], fields[2], redis.call('PTTL', key), fields[3], 'EXCLUSIVE', 1, 0}
    end
  elseif type ~= 'none' and ARGV[1] == 'status' then
    return redis.error_reply('WRONGTYPE Operation against a key holding the wrong kind of value')
  end
  for _, value in ipairs(lock) do
    locks[#locks + 1] = value
  end
end
return locks
