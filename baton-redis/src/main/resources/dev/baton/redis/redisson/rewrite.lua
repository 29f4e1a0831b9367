-- Rewrites the holder record beside this owner's holding in Redisson's layout, if its field is still in the hash: the
-- field holder, which no Redisson script reads, and nothing else. A rewrite never creates or revives a holding.
-- KEYS[1] the lock hash   ARGV[1] owner id   ARGV[2] the holder record (HolderRecord)
-- Returns 1 if rewritten, 0 if the store no longer held it for us.
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then
  redis.call('HSET', KEYS[1], 'holder', ARGV[2])
  return 1
end
return 0
