package dev.baton.testkit;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/** Finds the {@code etcd} executable: on the PATH, else where Debian and release tarballs put it. */
final class EtcdBinary {
  private static final String NAME = "etcd";
  private static final List<String> KNOWN_DIRS = List.of("/usr/bin", "/usr/local/bin");

  private EtcdBinary() {}

  /**
   * @throws IllegalStateException naming the install command if there is no {@code etcd}
   */
  static Path locate() {
    return find().orElseThrow(() -> new IllegalStateException(
        "etcd was not found on the PATH, in /usr/bin or in /usr/local/bin. The tests start a real etcd: install "
            + "it with `sudo apt-get install -y etcd-server`, or run the project's test command `bin/test`, which "
            + "installs it."));
  }

  private static Optional<Path> find() {
    String path = Optional.ofNullable(System.getenv("PATH")).orElse("");
    return Stream.concat(Arrays.stream(path.split(File.pathSeparator)), KNOWN_DIRS.stream())
        .filter(dir -> !dir.isBlank())
        .map(dir -> Path.of(dir, NAME))
        .filter(Files::isExecutable)
        .findFirst();
  }
}
