-- Adds an entry to the lock under the acquisition's rule if it may hold now, or confirms the entry this owner already
-- has (a retry whose reply was lost).
-- KEYS[1] the lock hash   KEYS[2] the key's fencing counter   KEYS[3] the key's yield hash (fields: client, waiting),
-- written by release.lua   KEYS[4] the key's waiting-writers hash
-- ARGV[1] owner id (CLIENT:SEQUENCE)   ARGV[2] expiry in ms   ARGV[3] '1' if the caller waits for a wake-up
-- when it may not hold   ARGV[4] the lock's ttl in ms   ARGV[5] who asks: host, pid, thread, time (HolderRecord)
-- ARGV[6] the rule's mode: EXCLUSIVE, SHARED or PERMIT   ARGV[7] the rule's capacity: 1, or N for N permits
-- ARGV[8] when the acquisition arrived, in server microseconds, as its first try returned it; 0 on the first try
-- ARGV[9] '1' if it is an exclusive acquisition that may wait, fair or not: it is recorded as a waiting writer while
-- it waits
-- ARGV[10] '1' if an earlier try of this writer was sent, which may have recorded it even if its reply was lost
-- Returns {1, fencing token} when the entry holds, {0, ms until it is worth trying again if no wake-up comes,
-- the acquisition's arrival} when not, {2, N} when the key's permits at the store number N, not ARGV[7].
--
-- The lock hash. An exclusive holding is the fields owner (its owner id), token and holder, as Baton has always
-- written them, so that an older client and this one exclude each other on a mutex key, and so that taking a free
-- mutex costs what it always did. Shared entries and permits are one field each, named by the owner id (which always
-- has a ':', which the hash's other fields never have), whose value is the lines token=TOKEN and expires=MS (server
-- ms since the epoch), then the holder. While there is any, the field owner holds the marker '*', which no owner id
-- equals, so that every acquire.lua, an older one too, finds the key taken, and while they are permits the field
-- permits holds their number, so that a client that counts another number is refused rather than let in. Each of them expires at its own expiry
-- even while others are renewed: the scripts that walk them delete the expired ones, none counts them as held, and
-- the hash's own expiry is at least the latest of theirs, so that the hash goes with the last. The field waiting
-- asks the next release to publish a wake-up.
--
-- The waiting-writers hash, so that a stream of shared entries cannot starve an exclusive one: each exclusive
-- acquisition that waits, fair or not, has a field named by its owner id, valued 'ARRIVAL EXPIRES' (server us of its
-- first try, server ms at which the record expires), and a shared entry or permit counts every live writer that
-- arrived before it as a conflicting entry ahead of it, as a queue would. The record lives by the writer's own ttl,
-- never by what the writer waits for: each try sets it to expire one ttl later, and a recorded writer tries again
-- within a third of its ttl, a wake-up or not, so that the record of a live writer never expires however long it
-- waits, and that of a writer that died expires one ttl after its last try. It goes sooner when the writer is granted
-- (here) or gives up (withdraw.lua). Its field waiting asks for a wake-up when a writer goes: the granted writer
-- moves it to the lock hash, so that its release publishes. Among exclusive acquisitions there is no queue: they
-- race, and a fair release yields the next turn to another client (the yield hash, see release.lua).
--
-- Fencing tokens, and why their counter may expire. A token is the INCR of the key's counter, raised to the
-- server's clock in microseconds when the counter is behind it: while the counter is there tokens grow by the INCR,
-- once it is gone by the clock. Every grant takes one, whatever its mode, so that each is larger than every token
-- granted on the key before it. The counter expires at the server time its own value names plus one ttl (PEXPIREAT
-- below), so it goes only after the server's clock has passed every token it gave, and the next token, the clock,
-- is larger again. That holds whatever the lock did meanwhile: a holding keeps its token however long it lasts
-- (renewed for days, handed over locally, ended by a hold timeout), so renewals need not touch the counter; a long
-- ttl only makes the counter live longer; a counter ahead of the clock (the clock was stepped back, or tokens came
-- faster than one a microsecond) lives until the clock has caught up, as Redis expires keys by the clock TIME reads.
-- What it does not survive: the server's clock stepping back by more than a ttl between the counter's expiry and
-- the next acquisition (the kind of promise a restart or a failover, which lose the counter, already rely on:
-- docs/torture.md, "Redis failover, honestly", and docs/guarantees.md, "Clocks").
-- The bound: a released key that no one waits for leaves nothing at the store one ttl after its release (the lock
-- hash goes at the last release, the counter one ttl after its last token, the yield hash after the yield time if
-- that is longer, the waiting-writers hash with its last record), later only by as far as the server's clock was
-- stepped back; a holder that died leaves nothing one ttl after its last renewal.
--
-- The script defines no functions: a closure made on every run costs a free mutex's acquire about a microsecond of
-- the server's time, a tenth of the whole.
local lock, fence, yield, writers = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local ownerId, expiry, mode, capacity, ttl = ARGV[1], tonumber(ARGV[2]), ARGV[6], tonumber(ARGV[7]), tonumber(ARGV[4])
local SEVERAL = '*'

local owner = redis.call('HGET', lock, 'owner')
if owner == ownerId then
  redis.call('PEXPIRE', lock, ARGV[2])
  return {1, tonumber(redis.call('HGET', lock, 'token'))}
end
local time = redis.call('TIME')
local nowMicros = tonumber(time[1]) * 1000000 + tonumber(time[2])
local nowMillis = math.floor(nowMicros / 1000)
if owner == SEVERAL then
  local token, expires, holder = string.match(redis.call('HGET', lock, ownerId) or '',
    '^token=(%d+)\nexpires=(%d+)\n(.*)$')
  if token and tonumber(expires) > nowMillis then
    redis.call('HSET', lock, ownerId, string.format('token=%s\nexpires=%d\n', token, nowMillis + expiry) .. holder)
    if redis.call('PTTL', lock) < expiry then
      redis.call('PEXPIRE', lock, ARGV[2])
    end
    return {1, tonumber(token)}
  end
end

-- How many entries that conflict with this one hold (holding) or wait ahead of it (ahead), and the ms until the
-- soonest expire among them that could let it in if nothing wakes it first.
local holding, ahead, expire = 0, 0, nil
local waited = false
if owner == SEVERAL and mode == 'PERMIT' then
  local permits = redis.call('HGET', lock, 'permits')
  if permits and tonumber(permits) ~= capacity then
    return {2, tonumber(permits)}
  end
end
if owner == SEVERAL and mode ~= 'SHARED' then
  -- Walks the shared entries and permits, deleting the expired ones.
  local fields = redis.call('HGETALL', lock)
  local soonest, latest = nil, 0
  for i = 1, #fields, 2 do
    if string.find(fields[i], ':', 1, true) then
      local left = tonumber(string.match(fields[i + 1], '\nexpires=(%d+)\n')) - nowMillis
      if left <= 0 then
        redis.call('HDEL', lock, fields[i])
      else
        holding = holding + 1
        soonest = math.min(soonest or left, left)
        latest = math.max(latest, left)
      end
    end
  end
  if holding == 0 then
    -- Only expired entries were left: the lock is free, and whoever waited for them waits on.
    waited = redis.call('HGET', lock, 'waiting')
    redis.call('DEL', lock)
    owner = false
  else
    expire = mode == 'EXCLUSIVE' and latest or soonest
    redis.call('PEXPIRE', lock, latest)
  end
elseif owner and owner ~= SEVERAL then
  -- An exclusive holder is held alone: nothing holds beside it, not even one of N permits, which QueueRule.awaited
  -- would count it as one of.
  holding = capacity
  expire = redis.call('PTTL', lock)
end
local arrival = ARGV[8] ~= '0' and tonumber(ARGV[8]) or nowMicros
if mode ~= 'EXCLUSIVE' then
  -- Counts the live waiting writers that arrived no later than this entry, deleting the expired records.
  local fields = redis.call('HGETALL', writers)
  local records = 0
  for i = 1, #fields, 2 do
    local since, expires = string.match(fields[i + 1], '^(%d+) (%d+)$')
    if since then
      local left = tonumber(expires) - nowMillis
      if left <= 0 then
        redis.call('HDEL', writers, fields[i])
      else
        records = records + 1
        if tonumber(since) <= arrival then
          ahead = ahead + 1
          expire = math.min(expire or left, left)
        end
      end
    end
  end
  if records == 0 and #fields > 0 then
    -- Those the expired writers held back try again when their records expire (the bound above): nothing is kept.
    redis.call('DEL', writers)
  end
end

-- When the entry may not hold: how long to wait at most if no wake-up comes.
local wait = nil
if holding + ahead >= capacity then
  if ARGV[3] == '1' then
    -- Tells the release of the holders (or the grant of the writers ahead) to publish a wake-up; the flag goes
    -- with the hash, so it is never stale.
    if holding > 0 then
      redis.call('HSET', lock, 'waiting', '1')
    end
    if ahead > 0 then
      redis.call('HSET', writers, 'waiting', '1')
    end
  end
  wait = expire
elseif owner == false then
  local yielding = redis.call('HGET', yield, 'client')
  if yielding and yielding == string.match(ownerId, '^(.*):') then
    -- This client released the lock while another waited for it: the turn is the other's for a moment.
    if ARGV[3] == '1' then
      redis.call('HSET', yield, 'waiting', '1')
    end
    wait = redis.call('PTTL', yield)
  elseif yielding then
    -- Takes the turn yielded to it, and with it the yielding client's wish to be woken at the release.
    waited = waited or redis.call('HGET', yield, 'waiting')
    redis.call('DEL', yield)
  end
end
if wait then
  if wait < 0 then
    -- An entry without expiry, which Baton never writes: try again after one ttl.
    wait = ttl
  end
  if ARGV[9] == '1' then
    -- A waiting writer's record expires one ttl after this try, and the writer tries again within a third of it.
    redis.call('HSET', writers, ownerId, string.format('%d %d', arrival, nowMillis + ttl))
    if redis.call('PTTL', writers) < ttl then
      redis.call('PEXPIRE', writers, ttl)
    end
    wait = math.min(wait, math.max(1, math.floor(ttl / 3)))
  end
  return {0, wait, arrival}
end

-- The token is an INCR of the key's counter, raised to the server's clock in microseconds when behind it, so that
-- it keeps growing even if the counter is lost (a restart without persistence, a failover, its expiry).
local token = redis.call('INCR', fence)
if token < nowMicros then
  token = nowMicros
  redis.call('SET', fence, string.format('%d', token))
end
-- The counter lives until the server's clock has passed the token by a ttl (see the top).
redis.call('PEXPIREAT', fence, string.format('%d', math.floor(token / 1000) + 1 + ttl))
if mode == 'EXCLUSIVE' then
  redis.call('HSET', lock, 'owner', ownerId, 'token', string.format('%d', token), 'holder', ARGV[5])
  redis.call('PEXPIRE', lock, ARGV[2])
else
  if owner == false then
    redis.call('HSET', lock, 'owner', SEVERAL)
    if mode == 'PERMIT' then
      redis.call('HSET', lock, 'permits', ARGV[7])
    end
  end
  redis.call('HSET', lock, ownerId, string.format('token=%d\nexpires=%d\n', token, nowMillis + expiry) .. ARGV[5])
  -- The hash lives as long as its longest-lived entry.
  if redis.call('PTTL', lock) < expiry then
    redis.call('PEXPIRE', lock, ARGV[2])
  end
end
if waited then
  redis.call('HSET', lock, 'waiting', '1')
end
if ARGV[9] == '1' and ARGV[10] == '1' and redis.call('HDEL', writers, ownerId) == 1 then
  -- The writer's record goes with its grant; those it held back are woken by its release.
  local waiting = redis.call('HGET', writers, 'waiting')
  if waiting then
    redis.call('HSET', lock, 'waiting', '1')
  end
  if redis.call('HLEN', writers) == (waiting and 1 or 0) then
    redis.call('DEL', writers)
  end
end
return {1, token}
