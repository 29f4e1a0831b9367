package dev.baton.postgres;

import dev.baton.torture.Primitive;

/** The short torture of a semaphore of 2 permits on PostgreSQL: pause, kill, server restart, terminated connections. */
class PostgresSemaphoreTortureTest extends PostgresShortTorture {
  PostgresSemaphoreTortureTest() {
    super("postgres-semaphore", Primitive.SEMAPHORE);
  }
}
