package dev.baton.mysql;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;

/**
 * The SQL Baton runs, read once from the resource files beside this class with {@code {table}} replaced by the lock
 * table's name (checked here: an identifier, optionally qualified by its database, that needs no quotes) and
 * {@code {index}} by its expiry index's.
 */
final class Sql {
  /** The default name of the lock table; its counter of fencing tokens is {@code baton_locks_fencing}. */
  static final String DEFAULT_TABLE = "baton_locks";

  /** 64 characters at most for a table's name in MySQL; {@code _fencing} and {@code _expires_at} are added to it. */
  private static final Pattern TABLE_NAME = Pattern.compile("([a-z_][a-z0-9_]{0,40}\\.)?[a-z_][a-z0-9_]{0,40}");

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

  Sql(String table) {
    this.table = checkTable(table);
    this.create = read("create.sql");
    this.createFencing = read("create-fencing.sql");
    this.seedFencing = read("seed-fencing.sql");
    this.readOnly = read("read-only.sql");
    this.exists = read("exists.sql");
    this.shape = read("shape.sql");
    this.nextToken = read("next-token.sql");
    this.entries = read("entries.sql");
    this.insert = read("insert.sql");
    this.refresh = read("refresh.sql");
    this.release = read("release.sql");
    this.releaseExpired = read("release-expired.sql");
    this.abandon = read("abandon.sql");
    this.contend = read("contend.sql");
    this.keep = read("keep.sql");
    this.keepLock = read("keep-lock.sql");
    this.keepOthers = read("keep-others.sql");
    this.keys = read("keys.sql");
    this.sweep = read("sweep.sql");
    this.idleTransaction = read("idle-transaction.sql");
  }

  /**
   * {@code table} if it is a lower-case identifier, optionally qualified by its database, that needs no quotes.
   *
   * @throws IllegalArgumentException naming the table otherwise: quotes, backticks, spaces, semicolons and every other
   *     character of SQL's syntax are refused, never escaped
   */
  static String checkTable(String table) {
    if (!isTable(table)) {
      throw new IllegalArgumentException("The lock table must be a lower-case name such as " + DEFAULT_TABLE
          + " or mydb." + DEFAULT_TABLE + " (letters, digits and _, at most 41 characters each part), but was '"
          + table + "'.");
    }
    return table;
  }

  /** Whether {@code table} is a lower-case identifier, optionally qualified by its database, that needs no quotes. */
  static boolean isTable(String table) {
    return table != null && TABLE_NAME.matcher(table).matches();
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

  private String read(String name) {
    try (InputStream in = Sql.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException("The resource dev/baton/mysql/" + name + " is missing from baton-mysql.");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8).replace("{table}", table)
          .replace("{index}", indexName()).strip();
    } catch (IOException e) {
      throw new UncheckedIOException("Could not read dev/baton/mysql/" + name + ": " + e.getMessage(), e);
    }
  }
}
