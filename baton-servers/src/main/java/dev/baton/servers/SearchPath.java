package dev.baton.servers;

import java.io.File;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/** The directories of the {@code PATH}, where the launchers look for a server's executables first. */
final class SearchPath {
  private SearchPath() {}

  /** The {@code PATH}'s directories in their order, blank entries left out; none if it is not set. */
  static List<Path> dirs() {
    String path = Optional.ofNullable(System.getenv("PATH")).orElse("");
    return Arrays.stream(path.split(File.pathSeparator)).filter(dir -> !dir.isBlank()).map(Path::of).toList();
  }
}
