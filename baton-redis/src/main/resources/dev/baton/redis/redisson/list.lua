-- Reads locks in Redisson's layout (see acquire.lua) without changing them, all at one moment.
-- KEYS pairs of a lock hash and its fencing counter: the one of a status, or those SCAN found for a list
-- ARGV[1] 'status' to refuse a key holding something other than a hash with Redis's WRONGTYPE error, as Redisson's
--         scripts on that key would, and to read a hash with no holder's field (an application's, at the lock's
--         name) as held by a holder it cannot name, since acquire.lua finds the name taken all the same; otherwise,
--         for a list, such keys read as absent: they are no locks
-- Returns four values per lock, in the order of KEYS: {holder's id ('' where the hash names none) or false, token or
-- false, ms until it expires (-1 never, -2 when absent), Baton's holder record or false}. The holder's id is the
-- first field that names one (it has a ':' and counts holds); its token is the field token that Baton's holders
-- write, or else the counter's value, which is an RFencedLock holder's own token; a plain RLock holder on a name no
-- RFencedLock has taken has none.
local locks = {}
for i = 1, #KEYS, 2 do
  local lock = {false, false, -2, false}
  local type = redis.call('TYPE', KEYS[i]).ok
  if type == 'hash' then
    local fields = redis.call('HGETALL', KEYS[i])
    local owner, token, holder = false, false, false
    for f = 1, #fields, 2 do
      if fields[f] == 'token' then
        token = fields[f + 1]
      elseif fields[f] == 'holder' then
        holder = fields[f + 1]
      elseif not owner and string.find(fields[f], ':', 1, true) and string.match(fields[f + 1], '^%d+$') then
        owner = fields[f]
      end
    end
    if owner then
      lock = {owner, token or redis.call('GET', KEYS[i + 1]) or false, redis.call('PTTL', KEYS[i]), holder}
    elseif ARGV[1] == 'status' then
      lock = {'', false, redis.call('PTTL', KEYS[i]), false}
    end
  elseif type ~= 'none' and ARGV[1] == 'status' then
    return redis.error_reply('WRONGTYPE Operation against a key holding the wrong kind of value')
  end
  for _, value in ipairs(lock) do
    locks[#locks + 1] = value
  end
end
return locks
