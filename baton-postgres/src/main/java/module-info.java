/** Baton's locks on PostgreSQL: {@link dev.baton.postgres.PostgresLockClient}. */
module dev.baton.postgres {
  requires transitive dev.baton.core;
  requires dev.baton.jdbc;
  requires transitive java.sql;
  requires org.postgresql.jdbc;
  requires org.slf4j;

  exports dev.baton.postgres;
}
