package dev.baton.postgres;

import dev.baton.torture.Primitive;

/** The short torture of leader election on PostgreSQL: pause, kill, server restart, terminated connections. */
class PostgresLeadershipTortureTest extends PostgresShortTorture {
  PostgresLeadershipTortureTest() {
    super("postgres-leader", Primitive.LEADERSHIP);
  }
}
