/** Baton's locks on MySQL and MariaDB: {@link dev.baton.mysql.MySqlLockClient}. */
module dev.baton.mysql {
  requires transitive dev.baton.core;
  requires dev.baton.jdbc;
  requires transitive java.sql;
  requires org.mariadb.jdbc;
  requires org.slf4j;

  exports dev.baton.mysql;
}
