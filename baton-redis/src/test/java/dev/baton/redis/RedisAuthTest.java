package dev.baton.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.Lease;
import dev.baton.LockClient;
import dev.baton.PermissionDeniedException;
import dev.baton.testkit.RedisServerExtension;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A server that refuses the client is not an outage: a wrong password or a user without the commands a lock needs
 * fails at once with {@link PermissionDeniedException}, instead of "could not be reached" after the whole wait.
 */
class RedisAuthTest {
  @RegisterExtension
  static final RedisServerExtension redis = new RedisServerExtension();

  @BeforeAll
  static void addUsers() {
    redis.command("ACL", "SETUSER", "billing", "on", ">s3cret", "~*", "&*", "+@all");
    redis.command("ACL", "SETUSER", "reader", "on", ">pw", "~*", "&*", "+@read", "+hello", "+ping", "+client");
  }

  @AfterAll
  static void removeUsers() {
    redis.command("ACL", "DELUSER", "billing", "reader");
  }

  private static String uri(String user, String password) {
    return redis.uri().replace("redis://", "redis://" + user + ":" + password + "@");
  }

  @Test
  @Timeout(30)
  void anAllowedUserLocks() throws Exception {
    try (LockClient client = RedisLockClient.connect(uri("billing", "s3cret"));
        Lease lease = client.lock("auth/allowed").acquire(Duration.ofSeconds(5))) {
      assertThat(lease.isHeld()).isTrue();
    }
  }

  @Test
  @Timeout(30)
  void aWrongPasswordFailsTheConnectWithoutShowingIt() {
    assertThatThrownBy(() -> RedisLockClient.connect(uri("billing", "wrong-pw")))
        .isInstanceOf(PermissionDeniedException.class)
        .hasMessageContaining("WRONGPASS")
        .hasMessageContaining("BATON_PASSWORD")
        .hasMessageNotContaining("wrong-pw");
  }

  @Test
  @Timeout(30)
  void aUserWithoutTheScriptCommandsIsRefusedAtOnce() {
    try (LockClient client = RedisLockClient.connect(uri("reader", "pw"))) {
      assertThatThrownBy(() -> client.lock("auth/refused").acquire(Duration.ofSeconds(20)))
          .isInstanceOf(PermissionDeniedException.class)
          .hasMessageContaining("NOPERM")
          .hasMessageContaining("auth/refused");
    }
  }
}
