-- Takes a lock as Redisson's RFencedLock takes it, so that Baton's holders and Redisson's (RLock, RFencedLock) exclude
-- each other on one name: the lock is free when its hash does not exist; its holder is the hash's field named by the
-- holder's id (Redisson's UUID:THREAD_ID, Baton's owner id), valued the hold count, and the hash expires with the lease.
-- Baton writes a count of 1 (its engine counts reentrant holds), and beside it the fields token and holder, which no
-- Redisson script reads: Redisson's scripts ask only whether the hash exists and whether their own field is in it.
-- A grant takes its fencing token as RFencedLock does, an INCR of the counter redisson_lock_token:{NAME}, so that
-- the tokens of both are one sequence; raised to the server's clock in microseconds when behind it, so that Baton's
-- tokens keep growing across a counter lost with a restart or a failover. The counter has no expiry, as Redisson
-- gives it none: RFencedLock's next token would otherwise start again at 1.
-- KEYS[1] the lock hash (Redisson's lock name)   KEYS[2] the fencing counter
-- ARGV[1] owner id   ARGV[2] expiry in ms   ARGV[3] who asks (HolderRecord)   ARGV[4] the lock's ttl in ms
-- Returns {1, fencing token} when the lock is ours (a retry whose reply was lost finds it so), {0, ms until it is
-- worth trying again if no unlock message comes, 0} when not.
local lock, counter, ownerId = KEYS[1], KEYS[2], ARGV[1]
if redis.call('HEXISTS', lock, ownerId) == 1 then
  redis.call('PEXPIRE', lock, ARGV[2])
  return {1, tonumber(redis.call('HGET', lock, 'token'))}
end
if redis.call('EXISTS', lock) == 1 then
  local left = redis.call('PTTL', lock)
  if left < 0 then
    -- A hash without expiry, which neither Redisson nor Baton writes: try again after one ttl.
    left = tonumber(ARGV[4])
  end
  return {0, left, 0}
end
local token = redis.call('INCR', counter)
local time = redis.call('TIME')
local nowMicros = tonumber(time[1]) * 1000000 + tonumber(time[2])
if token < nowMicros then
  token = nowMicros
  redis.call('SET', counter, string.format('%d', token))
end
redis.call('HSET', lock, ownerId, 1, 'token', string.format('%d', token), 'holder', ARGV[3])
redis.call('PEXPIRE', lock, ARGV[2])
return {1, token}
