package dev.baton.servers;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Where Galera's replication library, {@code libgalera_smm.so}, is: where Debian's {@code galera-4} package puts it
 * ({@code /usr/lib/galera/}, with a link in {@code /usr/lib/}), or where other distributions do.
 */
final class GaleraProvider {
  private static final List<Path> CANDIDATES = List.of(Path.of("/usr/lib/galera/libgalera_smm.so"),
      Path.of("/usr/lib/libgalera_smm.so"), Path.of("/usr/lib64/galera-4/libgalera_smm.so"),
      Path.of("/usr/lib64/galera/libgalera_smm.so"));

  private GaleraProvider() {}

  /**
   * The library.
   *
   * @throws IllegalStateException naming the install command if it is missing
   */
  static Path locate() {
    return CANDIDATES.stream().filter(Files::isReadable).findFirst()
        .orElseThrow(() -> new IllegalStateException("Galera's libgalera_smm.so was found in none of " + CANDIDATES
            + ". The Galera tests start a real cluster of MariaDB nodes: install it with `sudo apt-get install -y"
            + " --no-install-recommends galera-4`, or run the project's test command `bin/test`, which installs it."));
  }
}
