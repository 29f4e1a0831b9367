package dev.baton.postgres;

import dev.baton.torture.Primitive;

/**
 * The short torture of multi-locks over random overlapping sets of keys on PostgreSQL: pause, kill, server restart,
 * terminated connections.
 */
class PostgresMultiLockTortureTest extends PostgresShortTorture {
  PostgresMultiLockTortureTest() {
    super("postgres-multi", Primitive.MULTI_LOCK);
  }
}
