/** Baton's Redis backend: {@link dev.baton.redis.RedisLockClient}. */
package dev.baton.redis;
