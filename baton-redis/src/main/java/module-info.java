/** Baton's locks on Redis: {@link dev.baton.redis.RedisLockClient}. */
module dev.baton.redis {
  requires transitive dev.baton.core;
  requires lettuce.core;
  requires reactor.core;

  exports dev.baton.redis;
}
