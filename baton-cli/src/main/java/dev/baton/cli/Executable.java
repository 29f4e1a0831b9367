package dev.baton.cli;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;

/**
 * Finds the program a command names as execvp(3) would, before the supervisor starts it, so that baton can say
 * that it is missing or not executable in its own words and exit 127 or 126, as shells do.
 */
final class Executable {
  /** The path that execvp(3) searches when {@code PATH} is not set. */
  private static final String DEFAULT_PATH = "/bin:/usr/bin";

  private Executable() {}

  /**
   * Checks that {@code name} is an executable file: a path if it contains a slash, else a file in a directory
   * of {@code PATH}.
   *
   * @throws CannotRunException if it is not found (127) or is found but is not executable (126)
   */
  static void check(String name) throws CannotRunException {
    if (name.isEmpty()) {
      throw notFound(name);
    }
    if (name.contains("/")) {
      check(name, file(name));
      return;
    }
    String path = System.getenv("PATH");
    boolean denied = false;
    for (String dir : (path == null ? DEFAULT_PATH : path).split(File.pathSeparator, -1)) {
      Path file = file((dir.isEmpty() ? "." : dir) + "/" + name);
      if (runnable(file)) {
        return;
      }
      denied |= file != null && Files.exists(file);
    }
    throw denied ? denied(name) : notFound(name);
  }

  private static void check(String name, Path file) throws CannotRunException {
    if (file == null || !Files.exists(file)) {
      throw notFound(name);
    }
    if (!runnable(file)) {
      throw denied(name);
    }
  }

  private static boolean runnable(Path file) {
    return file != null && Files.isRegularFile(file) && Files.isExecutable(file);
  }

  private static Path file(String name) {
    try {
      return Path.of(name);
    } catch (InvalidPathException e) {
      return null;
    }
  }

  private static CannotRunException notFound(String name) {
    return new CannotRunException("cannot run '" + name + "': No such file or directory", ExitCodes.NOT_FOUND);
  }

  private static CannotRunException denied(String name) {
    return new CannotRunException("cannot run '" + name + "': Permission denied", ExitCodes.CANNOT_RUN);
  }
}
