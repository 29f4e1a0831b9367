package dev.baton.connect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.Lease;
import dev.baton.LockClient;
import dev.baton.testkit.RedisServerExtension;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A Redis server that asks for a password ({@code requirepass}) and has an ACL user: the password and the user
 * are given beside a URI without credentials, or in the URI, but not both.
 */
@Timeout(30)
class RedisCredentialsTest {
  private static final String PASSWORD = "S3cretPW";
  private static final String USER = "ops";
  private static final String USER_PASSWORD = "0ps-S3cret";

  @RegisterExtension
  static final RedisServerExtension redis = new RedisServerExtension();

  @BeforeAll
  static void askForPasswords() {
    redis.command("ACL", "SETUSER", USER, "on", ">" + USER_PASSWORD, "~*", "&*", "+@all");
    redis.command("CONFIG", "SET", "requirepass", PASSWORD);
  }

  @Test
  void thePasswordBesideTheUri() throws Exception {
    assertLocks(ConnectionSettings.builder(redis.uri()).credentials(null, PASSWORD).build());
  }

  @Test
  void anAclUserBesideTheUri() throws Exception {
    assertLocks(ConnectionSettings.builder(redis.uri()).credentials(USER, USER_PASSWORD).build());
  }

  @Test
  void thePasswordInTheUri() throws Exception {
    assertLocks(ConnectionSettings.builder(redis.uri().replace("redis://", "redis://:" + PASSWORD + "@")).build());
  }

  @Test
  void aPasswordBothInTheUriAndBesideItIsRefusedWithoutShowingEither() {
    String uri = redis.uri().replace("redis://", "redis://:" + PASSWORD + "@");
    assertThatThrownBy(() -> ConnectionSettings.builder(uri).credentials(null, "other"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("redis://:***@127.0.0.1:").hasMessageContaining("give it one way")
        .hasMessageNotContaining(PASSWORD).hasMessageNotContaining("other");
  }

  @Test
  void aPasswordWithoutAUserIsRefusedForStoresWhoseUsersHaveNames() {
    assertThatThrownBy(() -> ConnectionSettings.builder("etcd://127.0.0.1:2379").credentials(null, PASSWORD))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("needs a user").hasMessageNotContaining(PASSWORD);
  }

  private static void assertLocks(ConnectionSettings settings) throws Exception {
    try (LockClient client = LockClients.connect(settings); Lease lease = client.lock("credentials").acquire()) {
      assertThat(client.status("credentials").ownerId()).contains(lease.ownerId());
    }
  }
}
