-- The least a Redis lock can do to release: delete only if the owner matches.
-- KEYS[1] the lock   ARGV[1] owner id
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
