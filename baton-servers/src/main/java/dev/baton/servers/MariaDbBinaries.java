package dev.baton.servers;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Where MariaDB's {@code mariadb-install-db}, {@code mariadbd} and {@code mariadb} (the client) are: on the PATH, else
 * where Debian's {@code mariadb-server} package and its dependencies put them ({@code /usr/bin} and {@code /usr/sbin},
 * the latter off a user's PATH).
 */
final class MariaDbBinaries {
  private static final List<Path> DEBIAN_DIRS = List.of(Path.of("/usr/bin"), Path.of("/usr/sbin"));

  /**
   * The two executables a server needs.
   *
   * @param installDb {@code mariadb-install-db}, which makes a new data directory
   * @param server {@code mariadbd}, the server
   */
  record Found(Path installDb, Path server) {}

  private MariaDbBinaries() {}

  /**
   * Both executables.
   *
   * @throws IllegalStateException naming the install command if either is missing
   */
  static Found locate() {
    return new Found(find("mariadb-install-db"), find("mariadbd"));
  }

  /**
   * The command-line client, {@code mariadb}.
   *
   * @throws IllegalStateException naming the install command if it is missing
   */
  static Path client() {
    return find("mariadb");
  }

  private static Path find(String name) {
    return candidates().stream().map(dir -> dir.resolve(name)).filter(Files::isExecutable).findFirst()
        .orElseThrow(() -> new IllegalStateException(name + " was found neither on the PATH nor in " + DEBIAN_DIRS
            + ". The tests start a real MariaDB: install it with `sudo apt-get install -y --no-install-recommends"
            + " mariadb-server`, or run the project's test command `bin/test`, which installs it."));
  }

  private static List<Path> candidates() {
    List<Path> dirs = new ArrayList<>(SearchPath.dirs());
    dirs.addAll(DEBIAN_DIRS);
    return dirs;
  }
}
