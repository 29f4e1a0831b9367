-- Deletes this owner's entry of the lock if it holds one, and wakes the waiters if any waited. A fair release that
-- frees the lock and was waited on also yields the next turn: for a moment the lock is refused to the owner's own
-- client, so that a waiter of another client takes it instead of racing the releasing process's next thread. With a
-- keep expiry, ends a chain of hand-overs of an exclusive holding within the owner's process instead: keeps the
-- lock for it if no one else waited. The layout of the lock hash is described in acquire.lua.
-- KEYS[1] the lock hash   KEYS[2] the key's yield hash (see acquire.lua)
-- ARGV[1] owner id (CLIENT:SEQUENCE)   ARGV[2] the key's wake-up channel   ARGV[3] how long to yield in ms, 0 for
-- not at all   ARGV[4] the expiry in ms to keep an exclusive holding with if no one else waited, 0 to release in
-- any case   ARGV[5] the command that publishes the wake-up: PUBLISH, or SPUBLISH on a cluster
-- Returns 1 if the entry was ours and is deleted, 2 if it is kept, 0 if the store no longer held it for us.
local owner = redis.call('HGET', KEYS[1], 'owner')
local waiting
if owner == ARGV[1] then
  waiting = redis.call('HGET', KEYS[1], 'waiting')
  if ARGV[4] ~= '0' and not waiting then
    redis.call('PEXPIRE', KEYS[1], ARGV[4])
    return 2
  end
elseif owner == '*' then
  -- A shared entry or a permit: the others stay, each with its own expiry; expired ones go.
  local time = redis.call('TIME')
  local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
  local fields = redis.call('HGETALL', KEYS[1])
  local ours, others, latest = false, 0, 0
  for i = 1, #fields, 2 do
    if string.find(fields[i], ':', 1, true) then
      local left = tonumber(string.match(fields[i + 1], '\nexpires=(%d+)\n')) - now
      if left > 0 and fields[i] == ARGV[1] then
        ours = true
      elseif left > 0 then
        others = others + 1
        latest = math.max(latest, left)
      else
        redis.call('HDEL', KEYS[1], fields[i])
      end
    end
  end
  if not ours then
    return 0
  end
  waiting = redis.call('HGET', KEYS[1], 'waiting')
  if others > 0 then
    redis.call('HDEL', KEYS[1], ARGV[1])
    redis.call('PEXPIRE', KEYS[1], latest)
    if waiting then
      -- Whoever still waits tries again and asks anew.
      redis.call('HDEL', KEYS[1], 'waiting')
      redis.call(ARGV[5], ARGV[2], 'released')
    end
    return 1
  end
else
  return 0
end
redis.call('DEL', KEYS[1])
if waiting then
  if ARGV[3] ~= '0' then
    redis.call('HSET', KEYS[2], 'client', string.match(ARGV[1], '^(.*):'))
    redis.call('PEXPIRE', KEYS[2], ARGV[3])
  end
  redis.call(ARGV[5], ARGV[2], 'released')
end
return 1
