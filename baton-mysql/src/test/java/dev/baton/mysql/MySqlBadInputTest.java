package dev.baton.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.Lease;
import dev.baton.LockClient;
import dev.baton.LockStatus;
import dev.baton.PermissionDeniedException;
import dev.baton.servers.MariaDbServer;
import dev.baton.testkit.MariaDbServerExtension;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Input that could break SQL or leak a secret: keys with quotes and backslashes are kept as they are; NUL and keys
 * of a megabyte are refused naming them; table names with SQL's metacharacters are refused; a wrong password fails
 * the connect with a refusal that does not quote it.
 */
class MySqlBadInputTest {
  @RegisterExtension
  static final MariaDbServerExtension mariadb = new MariaDbServerExtension();

  @Test
  void keysWithQuotesAndBackslashesAreLocksOfTheirOwn() throws Exception {
    List<String> keys = List.of("it's", "it\\'s", "it\\", "\"quoted\"", "back`tick", "semi;colon -- x", "%_",
        "\\\\server\\share", "ünï/çødé/🔒");
    try (LockClient client = MySqlLockClient.connect(mariadb.uri())) {
      for (String key : keys) {
        try (Lease lease = client.lock(key).acquire(Duration.ofSeconds(5))) {
          LockStatus status = client.status(key);
          assertThat(status.isHeld()).as(key).isTrue();
          assertThat(status.fencingToken()).as(key).hasValue(lease.fencingToken());
          assertThat(client.list(key, 10)).as(key).extracting(LockStatus::key).containsExactly(key);
          assertThat(TestDatabase.numberForKey(mariadb.server(),
              "SELECT count(*) FROM baton_locks WHERE lock_key = ?", key)).as(key).isEqualTo(1);
        }
      }
      assertThat(client.list("", 100)).isEmpty();
    }
  }

  @Test
  void nulAndHugeKeysAreRefusedNamingThem() {
    try (LockClient client = MySqlLockClient.connect(mariadb.uri())) {
      assertThatThrownBy(() -> client.lock("orders\u000042")).isInstanceOf(IllegalArgumentException.class)
          .hasMessageContainingAll("orders", "42");
      String huge = "k".repeat(1 << 20);
      assertThatThrownBy(() -> client.lock(huge)).isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining(Integer.toString(1 << 20));
    }
  }

  @Test
  void tablesWithMetacharactersAreRefused() {
    for (String table : List.of("locks; DROP TABLE users", "locks`", "lo'cks", "locks--", "Locks", "a.b.c", "")) {
      assertThatThrownBy(() -> MySqlLockClient.builder().table(table))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("'" + table + "'")
          .hasMessageContaining("letters, digits and _");
    }
  }

  @Test
  void aWrongPasswordIsARefusalThatNamesNoSecret() {
    String secret = "not-the-password-42";
    String address = "mariadb://" + MariaDbServer.USER + ":" + secret + "@127.0.0.1:" + mariadb.server().port() + "/"
        + MariaDbServer.DATABASE;
    assertThatThrownBy(() -> MySqlLockClient.connect(address))
        .isInstanceOf(PermissionDeniedException.class)
        .hasMessageContaining("Check the user name and password")
        .hasMessageNotContaining(secret);
    assertThatThrownBy(() -> MySqlLockClient.builder().address(mariadb.jdbcUrl())
        .credentials(MariaDbServer.USER, secret).connect())
        .isInstanceOf(PermissionDeniedException.class)
        .hasMessageNotContaining(secret);
  }

  @Test
  void malformedAddressesAreRefusedWithoutTheirPassword() {
    for (String address : List.of("postgresql://u:hunter2@db:5432/x", "mysql://u:hunter2@db:3306", "mysql://")) {
      assertThatThrownBy(() -> MySqlLockClient.connect(address))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("mysql://user:password@host:3306/db")
          .hasMessageNotContaining("hunter2");
    }
  }
}
