package dev.baton.mysql;

import dev.baton.jdbc.SqlFiles;
import java.util.stream.Collectors;

/**
 * The SQL Baton runs, read once from the resource files beside this class ({@link SqlFiles}) without their lines of
 * comment, with {@code {table}} replaced by the lock table's name (an identifier, optionally qualified by its
 * database, that needs no quotes) and {@code {index}} by its expiry index's.
 */
final class Sql {
  /** The default name of the lock table; its counter of fencing tokens is {@code baton_locks_fencing}. */
  static final String DEFAULT_TABLE = SqlFiles.DEFAULT_TABLE;

  final String table;
  final String create;
  final String createFencing;
  final String seedFencing;
  final String readOnly;
  final String galera;
  final String causalReads;
  final String exists;
  final String shape;
  final String nextToken;
  final String now;
  final String entries;
  final String entriesAtTryStart;
  final String insert;
  final String claim;
  final String claimBlock;
  final String blockProbe;
  final String refresh;
  final String release;
  final String releaseExpired;
  final String rewrite;
  final String abandon;
  final String contend;
  final String contendAtTryStart;
  final String keep;
  final String keys;
  final String sweepRead;
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
    this.create = read(files, "create.sql");
    this.createFencing = read(files, "create-fencing.sql");
    this.seedFencing = read(files, "seed-fencing.sql");
    this.readOnly = read(files, "read-only.sql");
    this.galera = read(files, "galera.sql");
    this.causalReads = read(files, "causal-reads.sql");
    this.exists = read(files, "exists.sql");
    this.shape = read(files, "shape.sql");
    this.nextToken = read(files, "next-token.sql");
    this.now = read(files, "now.sql");
    this.entries = read(files, "entries.sql");
    this.entriesAtTryStart = atTryStart(entries);
    this.insert = read(files, "insert.sql");
    this.claim = read(files, "claim.sql");
    this.claimBlock = read(files, "claim-block.sql");
    this.blockProbe = read(files, "block-probe.sql");
    this.refresh = read(files, "refresh.sql");
    this.release = read(files, "release.sql");
    this.releaseExpired = read(files, "release-expired.sql");
    this.rewrite = read(files, "rewrite.sql");
    this.abandon = read(files, "abandon.sql");
    this.contend = read(files, "contend.sql");
    this.contendAtTryStart = atTryStart(contend);
    this.keep = read(files, "keep.sql");
    this.keys = read(files, "keys.sql");
    this.sweepRead = read(files, "sweep-read.sql");
    this.sweep = read(files, "sweep.sql");
    this.idleTransaction = read(files, "idle-transaction.sql");
    this.requestsExists = read(files, "requests-exists.sql");
    this.createRequests = read(files, "create-requests.sql");
    this.request = read(files, "request.sql");
    this.requestsRead = read(files, "requests-read.sql");
    this.requestsDelete = read(files, "requests-delete.sql");
    this.requestsClear = read(files, "requests-clear.sql");
    this.requestsSweep = read(files, "requests-sweep.sql");
  }

  /**
   * The statement of resource {@code name} without its lines of comment, which would otherwise travel to the server
   * with every call (the driver prepares statements on the client: their text is sent each time).
   */
  private static String read(SqlFiles files, String name) {
    return files.read(name).lines().filter(line -> !line.startsWith("--")).collect(Collectors.joining("\n"));
  }

  /**
   * {@code statement} comparing expiries with the time a try took first ({@code @baton_now}, {@code now.sql}) instead
   * of its own, for the statements of a transaction after its first: on a Galera node that first statement waits until
   * the node applied what the cluster committed before it, and the later ones begin after that wait, however long it
   * lasted; a holder's entry renewed on time elsewhere is live at the try's time, but may look expired at theirs.
   */
  private static String atTryStart(String statement) {
    return statement.replace("UTC_TIMESTAMP(6)", "@baton_now");
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
