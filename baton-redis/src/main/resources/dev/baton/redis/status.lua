-- Reads a lock without changing it.
-- KEYS[1] the lock hash
-- Returns {owner or false, token or false, ms until it expires (-2 when absent), holder or false}.
return {redis.call('HGET', KEYS[1], 'owner'), redis.call('HGET', KEYS[1], 'token'), redis.call('PTTL', KEYS[1]),
  redis.call('HGET', KEYS[1], 'holder')}
