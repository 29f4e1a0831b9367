package dev.baton.servers;

import dev.baton.embedded.internal.Loopback;
import dev.baton.embedded.internal.WorkDirs;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * What a MariaDB server of the tests is made of, shared by {@link MariaDbServer} and {@link GaleraCluster}: a new
 * data directory made by {@code mariadb-install-db} with an init file beside it, which makes the test user and
 * database at each start, and the command line of a server on loopback, without durable commits, whose files are all
 * in its directory. When the tests run as root the server runs as root too ({@code --user=root}), which MariaDB allows
 * when told.
 */
final class MariaDbInstall {
  private static final Duration INSTALL_TIMEOUT = Duration.ofSeconds(60);
  /** Run by the server at each start: the test user and database, made once. */
  private static final String INIT = "CREATE USER IF NOT EXISTS '" + MariaDbServer.USER + "'@'%' IDENTIFIED BY '"
      + MariaDbServer.PASSWORD + "';\n"
      + "GRANT ALL PRIVILEGES ON *.* TO '" + MariaDbServer.USER + "'@'%' WITH GRANT OPTION;\n"
      + "CREATE DATABASE IF NOT EXISTS " + MariaDbServer.DATABASE + ";\n";

  private MariaDbInstall() {}

  /**
   * A new work directory named {@code prefix...}, with a new data directory, {@code DIR/data}, and the init file
   * beside it; deleted again if {@code mariadb-install-db} failed.
   *
   * @throws IllegalStateException if {@code mariadb-install-db} failed (the message quotes its output)
   */
  static Path newDataDir(MariaDbBinaries.Found binaries, String prefix, String owner) {
    Path dir = WorkDirs.create(prefix, owner);
    try {
      Files.writeString(dir.resolve("init.sql"), INIT, StandardCharsets.UTF_8);
    } catch (IOException e) {
      WorkDirs.delete(dir, owner);
      throw new UncheckedIOException("Could not write " + dir.resolve("init.sql") + ": " + e.getMessage(), e);
    }
    List<String> command = new ArrayList<>(List.of(binaries.installDb().toString(), "--no-defaults",
        "--datadir=" + dir.resolve("data"), "--skip-test-db", "--auth-root-authentication-method=normal"));
    if (runsAsRoot()) {
      command.add("--user=root");
    }
    Commands.Completion installed = Commands.runToEnd(new ProcessBuilder(command).directory(dir.toFile()),
        INSTALL_TIMEOUT, "mariadb-install-db");
    if (!installed.succeeded()) {
      WorkDirs.delete(dir, owner);
      throw new IllegalStateException("mariadb-install-db (" + binaries.installDb() + ") did not make a data"
          + " directory within " + INSTALL_TIMEOUT.toSeconds() + " s. Its last output:\n" + installed.output());
    }
    return dir;
  }

  /**
   * The command line of a server of the data in {@code dir} on loopback port {@code port}, its socket, pid file and
   * init file in {@code dir}; a caller adds its own options.
   */
  static List<String> serverCommand(MariaDbBinaries.Found binaries, Path dir, int port) {
    List<String> command = new ArrayList<>(List.of(binaries.server().toString(), "--no-defaults",
        "--datadir=" + dir.resolve("data"), "--port=" + port, "--bind-address=" + Loopback.HOST,
        "--socket=" + dir.resolve("mariadb.sock"), "--pid-file=" + dir.resolve("mariadb.pid"),
        "--init-file=" + dir.resolve("init.sql"), "--skip-name-resolve", "--skip-log-bin",
        "--innodb-flush-log-at-trx-commit=0", "--innodb-buffer-pool-size=32M", "--max-connections=300",
        "--character-set-server=utf8mb4", "--collation-server=utf8mb4_bin"));
    if (runsAsRoot()) {
      command.add("--user=root");
    }
    return command;
  }

  /**
   * Runs {@code sql} in the {@code mariadb} client as the test user on the server at loopback port {@code port},
   * connecting within {@code timeout} and running to its end within twice that; {@code force} goes on past an error.
   */
  static Commands.Completion client(int port, String sql, boolean force, Duration timeout) {
    List<String> command = new ArrayList<>(List.of(MariaDbBinaries.client().toString(), "--no-defaults",
        "--protocol=TCP", "-h", Loopback.HOST, "-P", Integer.toString(port), "-u", MariaDbServer.USER, "--batch",
        "--skip-column-names", "--connect-timeout=" + timeout.toSeconds()));
    if (force) {
      command.add("--force");
    }
    command.addAll(List.of("-e", sql));
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().put("MYSQL_PWD", MariaDbServer.PASSWORD);
    return Commands.runToEnd(builder, timeout.multipliedBy(2), "mariadb-client");
  }

  private static boolean runsAsRoot() {
    return "root".equals(System.getProperty("user.name"));
  }
}
