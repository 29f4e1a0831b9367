package dev.baton.redis;

import dev.baton.spi.AcquireRequest;
import dev.baton.spi.Grant;

/** A lock held in Redis: the request's owner id is in the lock hash. */
record RedisGrant(AcquireRequest request, long fencingToken) implements Grant {}
