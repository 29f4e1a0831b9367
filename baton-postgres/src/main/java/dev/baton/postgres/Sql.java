package dev.baton.postgres;

import dev.baton.jdbc.SqlFiles;

/**
 * The SQL Baton runs, read once from the resource files beside this class ({@link SqlFiles}) with {@code {table}}
 * replaced by the lock table's name (an identifier, optionally schema-qualified, that needs no quotes) and
 * {@code {index}} by its expiry index's. The claim is two statements sent together: the key's advisory lock, which
 * also sets what the plans may use, and the insert.
 */
final class Sql {
  /** The default name of the lock table; its sequence is {@code baton_locks_fencing}. */
  static final String DEFAULT_TABLE = SqlFiles.DEFAULT_TABLE;

  final String table;
  final String create;
  final String index;
  final String exists;
  final String shape;
  final String privileges;
  final String queueLock;
  final String queue;
  final String claimInsert;
  final String claim;
  final String entries;
  final String insert;
  final String refresh;
  final String renewMany;
  final String release;
  final String rewrite;
  final String contend;
  final String keep;
  final String abandon;
  final String keys;
  final String sweep;

  Sql(String table) {
    this.table = checkTable(table);
    SqlFiles files = new SqlFiles(name -> Sql.class.getResourceAsStream(name), "baton-postgres (dev/baton/postgres)",
        this.table, indexName());
    this.create = files.read("create.sql");
    this.index = files.read("index.sql");
    this.exists = files.read("exists.sql");
    this.shape = files.read("shape.sql");
    this.privileges = files.read("privileges.sql");
    this.queueLock = files.read("queue-lock.sql");
    this.queue = files.read("queue.sql");
    this.claimInsert = files.read("claim.sql");
    this.claim = queueLock + ";\n" + claimInsert;
    this.entries = files.read("entries.sql");
    this.insert = files.read("insert.sql");
    this.refresh = files.read("refresh.sql");
    this.renewMany = files.read("renew-many.sql");
    this.release = files.read("release.sql");
    this.rewrite = files.read("rewrite.sql");
    this.contend = files.read("contend.sql");
    this.keep = files.read("keep.sql");
    this.abandon = files.read("abandon.sql");
    this.keys = files.read("keys.sql");
    this.sweep = files.read("sweep.sql");
  }

  /**
   * {@code table} if it is a lower-case identifier, optionally schema-qualified, that needs no quotes.
   *
   * @throws IllegalArgumentException naming the table otherwise
   */
  static String checkTable(String table) {
    return SqlFiles.checkTable(table, "myschema");
  }

  /** The expiry index's name, without the schema: an index lives in its table's schema and is named without it. */
  private String indexName() {
    return table.substring(table.indexOf('.') + 1) + "_expires_at";
  }

  /** The channel that releases notify and waiting clients listen on: the table's name. */
  String channel() {
    return table;
  }
}
