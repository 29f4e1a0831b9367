package dev.baton.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The user and password baton gives the store, from the environment, so that no secret shows on a command line
 * or in ps(1): {@code BATON_USER} (a ZooKeeper digest user, an etcd user, a Redis ACL user) and the password, in
 * {@code BATON_PASSWORD} or in the file that {@code BATON_PASSWORD_FILE} names (one of the two). Unset and empty
 * variables are alike.
 */
final class Credentials {
  static final String USER = "BATON_USER";
  static final String PASSWORD = "BATON_PASSWORD";
  static final String PASSWORD_FILE = "BATON_PASSWORD_FILE";
  /** The variables that hold a secret or lead to one: {@code baton exec} takes them out of its command's environment. */
  static final List<String> VARIABLES = List.of(USER, PASSWORD, PASSWORD_FILE);

  private final String user;
  private final String password;

  private Credentials(String user, String password) {
    this.user = user;
    this.password = password;
  }

  /**
   * Reads the credentials in {@code environment}.
   *
   * @throws IllegalArgumentException if the password is given twice, a user has none, or the file cannot be read
   */
  static Credentials from(Map<String, String> environment) {
    String user = value(environment, USER);
    String password = value(environment, PASSWORD);
    String file = value(environment, PASSWORD_FILE);
    if (password != null && file != null) {
      throw new IllegalArgumentException(PASSWORD + " and " + PASSWORD_FILE + " are both set: set one of them.");
    }
    if (file != null) {
      password = read(file);
    }
    if (user != null && password == null) {
      throw new IllegalArgumentException(USER + " is set, but neither " + PASSWORD + " nor " + PASSWORD_FILE
          + ": set one of them to the user's password.");
    }
    return new Credentials(user, password);
  }

  /** Whether a password was given (a user comes only with one). */
  boolean isPresent() {
    return password != null;
  }

  /** The user, or null (for Redis: the default user). */
  String user() {
    return user;
  }

  /** The password, or null for none. */
  String password() {
    return password;
  }

  /** Never the password. */
  @Override
  public String toString() {
    return "Credentials{user=" + user + ", password=" + (password == null ? "none" : "***") + '}';
  }

  private static String value(Map<String, String> environment, String name) {
    String value = environment.get(name);
    return value == null || value.isEmpty() ? null : value;
  }

  /** The password in {@code file}: its content, without the line end that editors add at the end. */
  private static String read(String file) {
    String content;
    try {
      content = Files.readString(Path.of(file), StandardCharsets.UTF_8);
    } catch (IOException | RuntimeException e) {
      throw new IllegalArgumentException(PASSWORD_FILE + " names " + file + ", which cannot be read ("
          + e.getClass().getSimpleName() + "): name a readable file that holds the password.");
    }
    String password = content.endsWith("\r\n") ? content.substring(0, content.length() - 2)
        : content.endsWith("\n") ? content.substring(0, content.length() - 1) : content;
    if (password.isEmpty()) {
      throw new IllegalArgumentException(PASSWORD_FILE + " names " + file + ", which is empty: write the password"
          + " in it.");
    }
    return password;
  }
}
