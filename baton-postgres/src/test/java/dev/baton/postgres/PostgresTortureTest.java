package dev.baton.postgres;

import dev.baton.torture.Primitive;

/** The short torture of the lock on PostgreSQL: pause, kill, server restart, terminated connections. */
class PostgresTortureTest extends PostgresShortTorture {
  PostgresTortureTest() {
    super("postgres", Primitive.LOCK);
  }
}
