package dev.baton.mysql;

import dev.baton.jdbc.SqlFiles;

/**
 * The SQL Baton runs, read once from the resource files beside this class ({@link SqlFiles}) with {@code {table}}
 * replaced by the lock table's name (an identifier, optionally qualified by its database, that needs no quotes) and
 * {@code {index}} by its expiry index's.
 */
final class Sql {
  /** The default name of the lock table; its counter of fencing tokens is {@code baton_locks_fencing}. */
  static final String DEFAULT_TABLE = SqlFiles.DEFAULT_TABLE;

  final String table;
  final String create;
  final String createFencing;
  final String seedFencing;
  final String readOnly;
  final String exists;
  final String shape;
  final String nextToken;
  final String entries;
  final String insert;
  final String refresh;
  final String release;
  final String releaseExpired;
  final String abandon;
  final String contend;
  final String keep;
  final String keepLock;
  final String keepOthers;
  final String keys;
  final String sweep;
  final String idleTransaction;
  final String requestsExists;
  final String createRequests;
  final String request;
  final String requestsRead;
  final String requestsDelete;
  final String requestsClear;
  final String requestsSweep;

  Sql(String table) {
    this.table = checkTable(table);
    SqlFiles files = new SqlFiles(name -> Sql.class.getResourceAsStream(name), "baton-mysql (dev/baton/mysql)",
        this.table, indexName());
    this.create = files.read("create.sql");
    this.createFencing = files.read("create-fencing.sql");
    this.seedFencing = files.read("seed-fencing.sql");
    this.readOnly = files.read("read-only.sql");
    this.exists = files.read("exists.sql");
    this.shape = files.read("shape.sql");
    this.nextToken = files.read("next-token.sql");
    this.entries = files.read("entries.sql");
    this.insert = files.read("insert.sql");
    this.refresh = files.read("refresh.sql");
    this.release = files.read("release.sql");
    this.releaseExpired = files.read("release-expired.sql");
    this.abandon = files.read("abandon.sql");
    this.contend = files.read("contend.sql");
    this.keep = files.read("keep.sql");
    this.keepLock = files.read("keep-lock.sql");
    this.keepOthers = files.read("keep-others.sql");
    this.keys = files.read("keys.sql");
    this.sweep = files.read("sweep.sql");
    this.idleTransaction = files.read("idle-transaction.sql");
    this.requestsExists = files.read("requests-exists.sql");
    this.createRequests = files.read("create-requests.sql");
    this.request = files.read("request.sql");
    this.requestsRead = files.read("requests-read.sql");
    this.requestsDelete = files.read("requests-delete.sql");
    this.requestsClear = files.read("requests-clear.sql");
    this.requestsSweep = files.read("requests-sweep.sql");
  }

  /**
   * {@code table} if it is a lower-case identifier, optionally qualified by its database, that needs no quotes.
   *
   * @throws IllegalArgumentException naming the table otherwise: quotes, backticks, spaces, semicolons and every other
   *     character of SQL's syntax are refused, never escaped
   */
  static String checkTable(String table) {
    return SqlFiles.checkTable(table, "mydb");
  }

  /** The expiry index's name: an index is named without its table's database. */
  private String indexName() {
    return tableName() + "_expires_at";
  }

  /** The table's database, or null for the connection's. */
  String database() {
    int dot = table.indexOf('.');
    return dot < 0 ? null : table.substring(0, dot);
  }

  /** The table's name without its database. */
  String tableName() {
    return table.substring(table.indexOf('.') + 1);
  }
}
