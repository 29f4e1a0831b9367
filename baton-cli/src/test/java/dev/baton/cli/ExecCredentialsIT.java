package dev.baton.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.testkit.RedisServerExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Secrets and the command: a Redis server with a password ({@code requirepass}) and an ACL user is reached with
 * the password from the environment or a file and a URI without credentials; the command that {@code exec} runs
 * does not see them; a password never shows in what baton prints.
 */
@Timeout(value = 1, unit = TimeUnit.MINUTES)
class ExecCredentialsIT {
  private static final String PASSWORD = "S3cretPW";
  private static final String USER = "ops";
  private static final String USER_PASSWORD = "0ps-S3cret";
  private static final String SHOW_SECRETS =
      "echo \"user=${BATON_USER-unset} password=${BATON_PASSWORD-unset} file=${BATON_PASSWORD_FILE-unset}\"";

  @RegisterExtension
  static final RedisServerExtension redis = new RedisServerExtension();

  @TempDir
  Path dir;

  @BeforeAll
  static void askForPasswords() {
    redis.command("ACL", "SETUSER", USER, "on", ">" + USER_PASSWORD, "~*", "&*", "+@all");
    redis.command("CONFIG", "SET", "requirepass", PASSWORD);
  }

  @Test
  void thePasswordFromTheEnvironmentAndTheCommandDoesNotSeeIt() throws InterruptedException {
    assertRunsWithoutSecrets(Map.of("BATON_PASSWORD", PASSWORD));
  }

  @Test
  void anAclUserFromTheEnvironmentAndTheCommandDoesNotSeeIt() throws InterruptedException {
    assertRunsWithoutSecrets(Map.of("BATON_USER", USER, "BATON_PASSWORD", USER_PASSWORD));
  }

  @Test
  void thePasswordFromAFileAndTheCommandDoesNotSeeTheFilesName() throws Exception {
    Path file = Files.writeString(dir.resolve("password"), PASSWORD + "\n");
    assertRunsWithoutSecrets(Map.of("BATON_PASSWORD_FILE", file.toString()));
  }

  @Test
  void thePasswordInTheUriStillWorks() throws InterruptedException {
    String uri = redis.uri().replace("redis://", "redis://:" + PASSWORD + "@");
    try (BatonProcess baton = BatonProcess.start(dir, "exec", "--backend", uri, "--key", "in-uri", "--",
        "sh", "-c", "echo \"held $BATON_BACKEND\"")) {
      assertThat(baton.awaitExit()).as(baton.output()).isZero();
      assertThat(baton.output()).isEqualTo("held " + redis.uri());
    }
  }

  @Test
  void withoutThePasswordTheServerRefusesAndBatonSaysSo() throws InterruptedException {
    try (BatonProcess baton = BatonProcess.start(dir, "exec", "--backend", redis.uri(), "--key", "refused", "--",
        "true")) {
      assertThat(baton.awaitExit()).as(baton.output()).isEqualTo(ExitCodes.NO_PERMISSION);
      assertThat(baton.output()).contains("NOAUTH");
    }
  }

  @Test
  void aMalformedUrisPasswordDoesNotShow() throws InterruptedException {
    try (BatonProcess baton = BatonProcess.start(dir, "exec", "--verbose", "--backend",
        "redis://:" + PASSWORD + "@127.0.0.1:99999", "--key", "malformed", "--", "true")) {
      assertThat(baton.awaitExit()).as(baton.output()).isEqualTo(ExitCodes.USAGE);
      assertThat(baton.output()).contains("redis://:***@127.0.0.1:99999").doesNotContain(PASSWORD);
    }
  }

  @Test
  void aPasswordGivenTwiceIsRefusedWithoutShowingEither() throws Exception {
    Path file = Files.writeString(dir.resolve("password"), "other");
    try (BatonProcess baton = BatonProcess.start(dir, Map.of("BATON_PASSWORD", PASSWORD,
        "BATON_PASSWORD_FILE", file.toString()), "exec", "--backend", redis.uri(), "--key", "twice", "--", "true")) {
      assertThat(baton.awaitExit()).as(baton.output()).isEqualTo(ExitCodes.USAGE);
      assertThat(baton.output()).contains("BATON_PASSWORD", "BATON_PASSWORD_FILE").doesNotContain(PASSWORD, "other");
    }
  }

  /** Runs a command under the lock with {@code environment}, and checks that it saw none of the secrets. */
  private void assertRunsWithoutSecrets(Map<String, String> environment) throws InterruptedException {
    try (BatonProcess baton = BatonProcess.start(dir, environment, "exec", "--backend", redis.uri(), "--key",
        "secrets", "--", "sh", "-c", SHOW_SECRETS)) {
      assertThat(baton.awaitExit()).as(baton.output()).isZero();
      assertThat(baton.output()).isEqualTo("user=unset password=unset file=unset");
    }
  }
}
