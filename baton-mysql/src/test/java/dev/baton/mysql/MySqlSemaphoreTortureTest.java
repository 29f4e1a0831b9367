package dev.baton.mysql;

import dev.baton.torture.Primitive;

/** The short torture of a semaphore of 2 permits on MariaDB: pause, kill, server restart, killed connections. */
class MySqlSemaphoreTortureTest extends MySqlShortTorture {
  MySqlSemaphoreTortureTest() {
    super("mysql-semaphore", Primitive.SEMAPHORE);
  }
}
