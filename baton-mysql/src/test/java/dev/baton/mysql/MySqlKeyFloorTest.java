package dev.baton.mysql;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Lease;
import dev.baton.LockClient;
import dev.baton.testkit.MariaDbServerExtension;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A client that has raised a key's floor ({@link KeyFloors}) by acquiring and releasing it over and over still sees
 * every live entry of the key: another client's, made after, and its own.
 */
class MySqlKeyFloorTest {
  @RegisterExtension
  static final MariaDbServerExtension mariadb = new MariaDbServerExtension();

  @Test
  void aClientWhoseFloorRoseStillSeesAnotherClientsHold() {
    try (LockClient looping = MySqlLockClient.connect(mariadb.uri());
        LockClient other = MySqlLockClient.connect(mariadb.uri())) {
      for (int i = 0; i < 20; i++) {
        looping.lock("floor/key").tryAcquire().orElseThrow().close();
      }
      try (Lease held = other.lock("floor/key").tryAcquire().orElseThrow()) {
        Optional<Lease> refused = looping.lock("floor/key").tryAcquire();
        assertThat(refused).isEmpty();
        assertThat(looping.status("floor/key").isHeld()).isTrue();
      }
      try (Lease again = looping.lock("floor/key").tryAcquire().orElseThrow()) {
        assertThat(other.lock("floor/key").tryAcquire()).isEmpty();
        assertThat(looping.lock("floor/key").tryAcquire()).isEmpty(); // its own hold too, from another handle
      }
    }
  }
}
