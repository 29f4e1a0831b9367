/**
 * Internal: the JDBC plumbing of Baton's SQL stores, exported to them alone. Applications use
 * {@code dev.baton.postgres} or {@code dev.baton.mysql}, never this.
 */
@SuppressWarnings("module") // the SQL stores, named in "exports ... to", are built after this one.
module dev.baton.jdbc {
  requires transitive dev.baton.core;
  requires transitive java.sql;
  requires org.slf4j;

  exports dev.baton.jdbc to
      dev.baton.postgres,
      dev.baton.mysql;
}
