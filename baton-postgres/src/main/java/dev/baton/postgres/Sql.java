package dev.baton.postgres;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;

/**
 * The SQL Baton runs, read once from the resource files beside this class with {@code {table}} replaced by the lock
 * table's name (checked here: an identifier, optionally schema-qualified, that needs no quotes) and {@code {index}} by
 * its expiry index's. The claim is two statements sent together: the key's advisory lock, which also sets what the
 * plans may use, and the insert.
 */
final class Sql {
  /** The default name of the lock table; its sequence is {@code baton_locks_fencing}. */
  static final String DEFAULT_TABLE = "baton_locks";

  private static final Pattern TABLE_NAME = Pattern.compile("([a-z_][a-z0-9_]{0,40}\\.)?[a-z_][a-z0-9_]{0,40}");

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
  final String contend;
  final String keep;
  final String abandon;
  final String keys;
  final String sweep;

  Sql(String table) {
    this.table = checkTable(table);
    this.create = read("create.sql");
    this.index = read("index.sql");
    this.exists = read("exists.sql");
    this.shape = read("shape.sql");
    this.privileges = read("privileges.sql");
    this.queueLock = read("queue-lock.sql");
    this.queue = read("queue.sql");
    this.claimInsert = read("claim.sql");
    this.claim = queueLock + ";\n" + claimInsert;
    this.entries = read("entries.sql");
    this.insert = read("insert.sql");
    this.refresh = read("refresh.sql");
    this.renewMany = read("renew-many.sql");
    this.release = read("release.sql");
    this.contend = read("contend.sql");
    this.keep = read("keep.sql");
    this.abandon = read("abandon.sql");
    this.keys = read("keys.sql");
    this.sweep = read("sweep.sql");
  }

  /**
   * {@code table} if it is a lower-case identifier, optionally schema-qualified, that needs no quotes.
   *
   * @throws IllegalArgumentException naming the table otherwise
   */
  static String checkTable(String table) {
    if (!isTable(table)) {
      throw new IllegalArgumentException("The lock table must be a lower-case name such as " + DEFAULT_TABLE
          + " or myschema." + DEFAULT_TABLE + " (letters, digits and _, at most 41 characters each part), but was '"
          + table + "'.");
    }
    return table;
  }

  /** Whether {@code table} is a lower-case identifier, optionally schema-qualified, that needs no quotes. */
  static boolean isTable(String table) {
    return table != null && TABLE_NAME.matcher(table).matches();
  }

  /** The expiry index's name, without the schema: an index lives in its table's schema and is named without it. */
  private String indexName() {
    return table.substring(table.indexOf('.') + 1) + "_expires_at";
  }

  /** The channel that releases notify and waiting clients listen on: the table's name. */
  String channel() {
    return table;
  }

  private String read(String name) {
    try (InputStream in = Sql.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException("The resource dev/baton/postgres/" + name + " is missing from baton-postgres.");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8).replace("{table}", table)
          .replace("{index}", indexName()).strip();
    } catch (IOException e) {
      throw new UncheckedIOException("Could not read dev/baton/postgres/" + name + ": " + e.getMessage(), e);
    }
  }
}
