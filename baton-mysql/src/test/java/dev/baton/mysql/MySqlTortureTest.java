package dev.baton.mysql;

import dev.baton.torture.Primitive;

/** The short torture of the lock on MariaDB: pause, kill, server restart, killed connections. */
class MySqlTortureTest extends MySqlShortTorture {
  MySqlTortureTest() {
    super("mysql", Primitive.LOCK);
  }
}
