package dev.baton.jdbc;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;

/**
 * A SQL store's statements, read from the resource files beside its classes with {@code {table}} replaced by the lock
 * table's name and {@code {index}} by its expiry index's; and the check of that name, which SQL never quotes: a
 * lower-case identifier, optionally qualified (by a schema, a database), of letters, digits and {@code _}. Every other
 * character, a quote, a backtick, a space or a semicolon among them, is refused, never escaped.
 */
public final class SqlFiles {
  /** The default name of the lock table; its fencing sequence or counter is {@code baton_locks_fencing}. */
  public static final String DEFAULT_TABLE = "baton_locks";

  /**
   * 41 characters at most each part, so that {@code _fencing} and {@code _expires_at} added to it stay within every
   * store's limit on names (63 characters on PostgreSQL, 64 on MySQL).
   */
  private static final Pattern TABLE_NAME = Pattern.compile("([a-z_][a-z0-9_]{0,40}\\.)?[a-z_][a-z0-9_]{0,40}");

  /** The store's own resources: the caller reads them, as only its module may. */
  @FunctionalInterface
  public interface Resources {
    /** The resource {@code name} beside the store's classes, or null if there is none. */
    InputStream open(String name);
  }

  private final Resources resources;
  private final String where;
  private final String table;
  private final String index;

  /**
   * The statements of {@code resources} (which messages place at {@code where}, e.g. {@code dev/baton/postgres} of
   * {@code baton-postgres}) for the lock table {@code table}, already checked, and its expiry index {@code index}.
   */
  public SqlFiles(Resources resources, String where, String table, String index) {
    this.resources = resources;
    this.where = where;
    this.table = table;
    this.index = index;
  }

  /** The statement in the resource {@code name}, its names filled in. */
  public String read(String name) {
    try (InputStream in = resources.open(name)) {
      if (in == null) {
        throw new IllegalStateException("The resource " + name + " is missing from " + where + ".");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8).replace("{table}", table).replace("{index}", index)
          .strip();
    } catch (IOException e) {
      throw new UncheckedIOException("Could not read " + name + " of " + where + ": " + e.getMessage(), e);
    }
  }

  /**
   * {@code table} if it is a lower-case identifier, optionally qualified, that needs no quotes.
   *
   * @param qualifier what a qualified example names, e.g. {@code myschema} or {@code mydb}
   * @throws IllegalArgumentException naming the table otherwise
   */
  public static String checkTable(String table, String qualifier) {
    if (!isTable(table)) {
      throw new IllegalArgumentException("The lock table must be a lower-case name such as " + DEFAULT_TABLE
          + " or " + qualifier + "." + DEFAULT_TABLE + " (letters, digits and _, at most 41 characters each part), but"
          + " was '" + table + "'.");
    }
    return table;
  }

  /** Whether {@code table} is a lower-case identifier, optionally qualified, that needs no quotes. */
  public static boolean isTable(String table) {
    return table != null && TABLE_NAME.matcher(table).matches();
  }
}
