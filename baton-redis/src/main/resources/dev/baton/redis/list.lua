-- Reads the locks of a list without changing them, all at one moment.
-- KEYS the lock hashes, as SCAN found them
-- Returns four values per key, in the order of KEYS: {owner or false, token or false, ms until it expires (-2 when
-- absent), holder or false}. A key released since the SCAN, or holding something other than a hash (not a lock
-- that Baton wrote), reads as absent: false, false, -2, false.
local locks = {}
for _, key in ipairs(KEYS) do
  if redis.call('TYPE', key).ok == 'hash' then
    local fields = redis.call('HMGET', key, 'owner', 'token', 'holder')
    locks[#locks + 1] = fields[1]
    locks[#locks + 1] = fields[2]
    locks[#locks + 1] = redis.call('PTTL', key)
    locks[#locks + 1] = fields[3]
  else
    locks[#locks + 1] = false
    locks[#locks + 1] = false
    locks[#locks + 1] = -2
    locks[#locks + 1] = false
  end
end
return locks
