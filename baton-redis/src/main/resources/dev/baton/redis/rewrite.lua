-- Rewrites the holder record of this owner's exclusive holding, if it still holds the lock: the field holder, and
-- nothing else (not the expiry, not the token). A lock another owner holds, or none, is left as it is: a rewrite never
-- creates or revives a holding.
-- KEYS[1] the lock hash   ARGV[1] owner id   ARGV[2] the holder record (HolderRecord)
-- Returns 1 if rewritten, 0 if the store no longer held it for us.
if redis.call('HGET', KEYS[1], 'owner') == ARGV[1] then
  redis.call('HSET', KEYS[1], 'holder', ARGV[2])
  return 1
end
return 0
