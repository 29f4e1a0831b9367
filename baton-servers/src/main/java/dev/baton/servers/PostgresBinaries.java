package dev.baton.servers;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Where PostgreSQL's {@code initdb} and {@code postgres} are: on the PATH, else in the newest
 * {@code /usr/lib/postgresql/VERSION/bin}, where Debian's {@code postgresql} package puts them (not on the PATH).
 */
final class PostgresBinaries {
  private static final Path DEBIAN_ROOT = Path.of("/usr/lib/postgresql");

  private PostgresBinaries() {}

  /**
   * The directory that holds both executables.
   *
   * @throws IllegalStateException naming the install command if there is none
   */
  static Path locate() {
    return candidates().stream()
        .filter(dir -> Files.isExecutable(dir.resolve("initdb")) && Files.isExecutable(dir.resolve("postgres")))
        .findFirst()
        .orElseThrow(() -> new IllegalStateException("initdb and postgres were found neither on the PATH nor in "
            + DEBIAN_ROOT + "/VERSION/bin. The tests start a real PostgreSQL: install it with `sudo apt-get install -y"
            + " postgresql`, or run the project's test command `bin/test`, which installs it."));
  }

  /**
   * PostgreSQL's client, {@code psql}: on the PATH or beside the server's executables.
   *
   * @throws IllegalStateException naming the install command if there is none
   */
  static Path psql() {
    return candidates().stream().map(dir -> dir.resolve("psql")).filter(Files::isExecutable).findFirst()
        .orElseThrow(() -> new IllegalStateException("psql was found neither on the PATH nor in " + DEBIAN_ROOT
            + "/VERSION/bin. Install it with `sudo apt-get install -y postgresql-client`, or run `bin/test`, which"
            + " installs postgresql and its client."));
  }

  private static List<Path> candidates() {
    List<Path> dirs = new ArrayList<>(SearchPath.dirs());
    if (Files.isDirectory(DEBIAN_ROOT)) {
      try (Stream<Path> versions = Files.list(DEBIAN_ROOT)) {
        versions.sorted(Comparator.comparing(PostgresBinaries::version).reversed())
            .map(version -> version.resolve("bin"))
            .forEach(dirs::add);
      } catch (IOException e) {
        throw new UncheckedIOException("Could not list " + DEBIAN_ROOT + ": " + e.getMessage(), e);
      }
    }
    return dirs;
  }

  /** A Debian version directory's major version ({@code 15}, {@code 9.6} reads as 9), 0 if it is not a number. */
  private static int version(Path dir) {
    String name = dir.getFileName().toString();
    int dot = name.indexOf('.');
    try {
      return Integer.parseInt(dot < 0 ? name : name.substring(0, dot));
    } catch (NumberFormatException e) {
      return 0;
    }
  }
}
