package dev.baton.postgres;

import dev.baton.torture.Primitive;

/**
 * The short torture of lingering locks (exclusion, and waiters of other processes served) on PostgreSQL: pause,
 * kill, server restart, terminated connections.
 */
class PostgresLingerTortureTest extends PostgresShortTorture {
  PostgresLingerTortureTest() {
    super("postgres-linger", Primitive.LINGER);
  }
}
