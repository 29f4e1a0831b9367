-- Takes the lock if it is free, or confirms it if this owner already has it (a retry whose reply was lost).
-- KEYS[1] the lock hash (fields: owner, token, waiting)   KEYS[2] the key's fencing counter
-- ARGV[1] owner id   ARGV[2] expiry in ms   ARGV[3] '1' if the caller waits for a wake-up when the lock is taken
-- Returns {1, fencing token} when the lock is ours, {0, ms until the holder's entry expires} when it is not.
local owner = redis.call('HGET', KEYS[1], 'owner')
if owner == false then
  -- The token is an INCR of the key's counter, raised to the server's clock in microseconds when behind it,
  -- so that it keeps growing even if the counter is lost (a restart without persistence, a failover).
  local token = redis.call('INCR', KEYS[2])
  local time = redis.call('TIME')
  local now = tonumber(time[1]) * 1000000 + tonumber(time[2])
  if token < now then
    token = now
    redis.call('SET', KEYS[2], string.format('%d', now))
  end
  redis.call('HSET', KEYS[1], 'owner', ARGV[1], 'token', string.format('%d', token))
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return {1, token}
end
if owner == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return {1, tonumber(redis.call('HGET', KEYS[1], 'token'))}
end
if ARGV[3] == '1' then
  -- Tells the holder's release to publish a wake-up; the flag goes with the entry, so it is never stale.
  redis.call('HSET', KEYS[1], 'waiting', '1')
end
return {0, redis.call('PTTL', KEYS[1])}
