package dev.baton.mysql;

import dev.baton.torture.Primitive;

/** The short torture of leader election on MariaDB: pause, kill, server restart, killed connections. */
class MySqlLeadershipTortureTest extends MySqlShortTorture {
  MySqlLeadershipTortureTest() {
    super("mysql-leader", Primitive.LEADERSHIP);
  }
}
