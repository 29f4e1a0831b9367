package dev.baton.servers;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/** An executable these launchers run, such as {@code redis-server} or {@code etcd}, and the package that installs it. */
enum ServerBinary {
  REDIS("redis-server", "redis-server", "Redis"),
  REDIS_CLI("redis-cli", "redis-tools", "Redis command line, which creates a cluster,"),
  ETCD("etcd", "etcd-server", "etcd");

  private static final List<Path> KNOWN_DIRS = List.of(Path.of("/usr/bin"), Path.of("/usr/local/bin"));

  private final String name;
  private final String debianPackage;
  private final String server;

  ServerBinary(String name, String debianPackage, String server) {
    this.name = name;
    this.debianPackage = debianPackage;
    this.server = server;
  }

  /**
   * The executable: on the PATH, else where Debian and source installs put it.
   *
   * @throws IllegalStateException naming the install command if there is none
   */
  Path locate() {
    return Stream.concat(SearchPath.dirs().stream(), KNOWN_DIRS.stream())
        .map(dir -> dir.resolve(name))
        .filter(Files::isExecutable)
        .findFirst()
        .orElseThrow(() -> new IllegalStateException(name + " was not found on the PATH, in /usr/bin or in "
            + "/usr/local/bin. The tests start a real " + server + ": install it with `sudo apt-get install -y "
            + debianPackage + "`, or run the project's test command `bin/test`, which installs it."));
  }
}
