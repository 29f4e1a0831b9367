package dev.baton.postgres;

import dev.baton.torture.Primitive;

/** The short torture of the read-write lock on PostgreSQL: pause, kill, server restart, terminated connections. */
class PostgresReadWriteTortureTest extends PostgresShortTorture {
  PostgresReadWriteTortureTest() {
    super("postgres-rw", Primitive.READ_WRITE);
  }
}
