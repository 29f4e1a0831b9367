package dev.baton.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.testkit.RedisServerExtension;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** A store that refuses the credentials or the user's permissions: exit 77 at once, not 69 after the whole wait. */
@Timeout(60)
class RefusedCredentialsIT {
  @RegisterExtension
  static final RedisServerExtension redis = new RedisServerExtension();

  @TempDir
  Path dir;

  @BeforeAll
  static void addAUserWithoutScripts() {
    redis.command("ACL", "SETUSER", "reader", "on", ">pw", "~*", "&*", "+@read", "+hello", "+ping", "+client");
  }

  private static String backend(String user, String password) {
    return redis.uri().replace("redis://", "redis://" + user + ":" + password + "@");
  }

  @Test
  void aUserWithoutPermissionExits77AtOnce() throws Exception {
    try (BatonProcess exec = BatonProcess.start(dir, "exec", "--backend", backend("reader", "pw"), "--key", "refused",
        "--wait", "30s", "--", "true")) {
      assertThat(exec.awaitExit()).as(exec.output()).isEqualTo(ExitCodes.NO_PERMISSION);
      assertThat(exec.output()).contains("NOPERM");
    }
  }

  @Test
  void aWrongPasswordExits77() throws Exception {
    try (BatonProcess exec = BatonProcess.start(dir, "exec", "--backend", backend("reader", "wrong"), "--key", "refused",
        "--", "true")) {
      assertThat(exec.awaitExit()).as(exec.output()).isEqualTo(ExitCodes.NO_PERMISSION);
      assertThat(exec.output()).contains("WRONGPASS");
    }
  }
}
