package dev.baton.servers;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.GroupPrincipal;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The operating-system user PostgreSQL runs as. PostgreSQL refuses to run as root: when the tests run as root (as
 * in CI), it runs as the {@code postgres} user that Debian's package creates, or as {@code nobody} without it,
 * through {@code setpriv}, which replaces itself with the server so that the server's pid is the child's own.
 */
final class PostgresUser {
  private static final List<String> UNPRIVILEGED = List.of("postgres", "nobody");

  /** The user and group names, or null to run as the current user. */
  private final String user;
  private final String group;

  private PostgresUser(String user, String group) {
    this.user = user;
    this.group = group;
  }

  /** The current user, unless it is root; then the first unprivileged user this machine has. */
  static PostgresUser forThisProcess() {
    if (!"0".equals(run("id", "-u"))) {
      return new PostgresUser(null, null);
    }
    for (String candidate : UNPRIVILEGED) {
      String gid = run("id", "-g", candidate);
      if (gid != null) {
        return new PostgresUser(candidate, gid);
      }
    }
    throw new IllegalStateException("The tests run as root, which PostgreSQL refuses to run as, and this machine has"
        + " no user " + UNPRIVILEGED + " to run it as; install Debian's postgresql package, which creates one.");
  }

  /** {@code command} as this user runs it. */
  List<String> command(List<String> command) {
    if (user == null) {
      return command;
    }
    List<String> wrapped = new ArrayList<>(List.of("setpriv", "--reuid=" + user, "--regid=" + group, "--init-groups",
        "--"));
    wrapped.addAll(command);
    return wrapped;
  }

  /** Gives {@code dir} to this user, so that the server may write in it. */
  void own(Path dir) {
    if (user == null) {
      return;
    }
    try {
      UserPrincipalLookupService lookup = dir.getFileSystem().getUserPrincipalLookupService();
      PosixFileAttributeView view = Files.getFileAttributeView(dir, PosixFileAttributeView.class);
      view.setOwner(lookup.lookupPrincipalByName(user));
      GroupPrincipal owners = lookup.lookupPrincipalByGroupName(group);
      view.setGroup(owners);
    } catch (IOException e) {
      throw new UncheckedIOException("Could not give " + dir + " to the user " + user + ": " + e.getMessage(), e);
    }
  }

  /** The first line a short command prints, or null if it fails. */
  private static String run(String... command) {
    try {
      Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
      String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        return null;
      }
      return process.exitValue() == 0 ? output : null;
    } catch (IOException e) {
      throw new UncheckedIOException("Could not run " + String.join(" ", command) + ": " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while running " + String.join(" ", command), e);
    }
  }
}
