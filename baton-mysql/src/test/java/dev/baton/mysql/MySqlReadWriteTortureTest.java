package dev.baton.mysql;

import dev.baton.torture.Primitive;

/** The short torture of the read-write lock on MariaDB: pause, kill, server restart, killed connections. */
class MySqlReadWriteTortureTest extends MySqlShortTorture {
  MySqlReadWriteTortureTest() {
    super("mysql-rw", Primitive.READ_WRITE);
  }
}
