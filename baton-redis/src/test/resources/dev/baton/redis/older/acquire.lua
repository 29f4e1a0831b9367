-- acquire.lua of a Baton that served mutexes only (as of ee8f24b): how an older client, still running during a rolling
-- upgrade, takes and releases a lock. RedisRollingUpgradeTest runs it beside the current scripts.
-- Takes the lock if it is free, or confirms it if this owner already has it (a retry whose reply was lost).
-- KEYS[1] the lock hash (fields: owner, token, holder, waiting)   KEYS[2] the key's fencing counter
-- KEYS[3] the key's yield hash (fields: client, waiting), written by release.lua
-- ARGV[1] owner id (CLIENT:SEQUENCE)   ARGV[2] expiry in ms   ARGV[3] '1' if the caller waits for a wake-up
-- when the lock is taken   ARGV[4] the lock's ttl in ms   ARGV[5] who asks: host, pid, thread, time (HolderRecord)
-- Returns {1, fencing token} when the lock is ours, {0, ms until the holder's entry or the yield expires} when not.
--
-- Fencing tokens, and why their counter may expire. A token is the INCR of the key's counter, raised to the
-- server's clock in microseconds when the counter is behind it: while the counter is there tokens grow by the INCR,
-- once it is gone by the clock. The counter expires at the server time its own value names plus one ttl (PEXPIREAT
-- below), so it goes only after the server's clock has passed every token it gave, and the next token, the clock,
-- is larger again. That holds whatever the lock did meanwhile: a holding keeps its token however long it lasts
-- (renewed for days, handed over locally, ended by a hold timeout), so renewals need not touch the counter; a long
-- ttl only makes the counter live longer; a counter ahead of the clock (the clock was stepped back, or tokens came
-- faster than one a microsecond) lives until the clock has caught up, as Redis expires keys by the clock TIME reads.
-- What it does not survive: the server's clock stepping back by more than a ttl between the counter's expiry and
-- the next acquisition (the kind of promise a restart or a failover, which lose the counter, already rely on:
-- README, "Redis failover, honestly").
-- The bound: a released key that no one waits for leaves nothing at the store one ttl after its release (the lock
-- hash goes at the release, the counter one ttl after its last token, the yield hash after the yield time if that
-- is longer), later only by as far as the server's clock was stepped back; a holder that died leaves nothing one
-- ttl after its last renewal.
local owner = redis.call('HGET', KEYS[1], 'owner')
if owner == false then
  local waited = false
  local yielding = redis.call('HGET', KEYS[3], 'client')
  if yielding then
    if yielding == string.match(ARGV[1], '^(.*):') then
      -- This client released the lock while another waited for it: the turn is the other's for a moment.
      if ARGV[3] == '1' then
        redis.call('HSET', KEYS[3], 'waiting', '1')
      end
      return {0, redis.call('PTTL', KEYS[3])}
    end
    -- Takes the turn yielded to it, and with it the yielding client's wish to be woken at the release.
    waited = redis.call('HGET', KEYS[3], 'waiting')
    redis.call('DEL', KEYS[3])
  end
  -- The token is an INCR of the key's counter, raised to the server's clock in microseconds when behind it,
  -- so that it keeps growing even if the counter is lost (a restart without persistence, a failover, its expiry).
  local token = redis.call('INCR', KEYS[2])
  local time = redis.call('TIME')
  local now = tonumber(time[1]) * 1000000 + tonumber(time[2])
  if token < now then
    token = now
    redis.call('SET', KEYS[2], string.format('%d', now))
  end
  -- The counter lives until the server's clock has passed the token by a ttl (see the top).
  redis.call('PEXPIREAT', KEYS[2], string.format('%d', math.floor(token / 1000) + 1 + tonumber(ARGV[4])))
  redis.call('HSET', KEYS[1], 'owner', ARGV[1], 'token', string.format('%d', token), 'holder', ARGV[5])
  if waited then
    redis.call('HSET', KEYS[1], 'waiting', '1')
  end
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
