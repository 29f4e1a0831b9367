package dev.baton.connect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.Lease;
import dev.baton.LockClient;
import dev.baton.LockOptions;
import dev.baton.connect.BackendUri.Backend;
import dev.baton.memory.MemoryLockClient;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code memory://} through {@link LockClients}: the store inside this JVM that {@link MemoryLockClient} connects
 * to, with the default options and the namespace, and the settings for reaching a server ignored.
 */
@Timeout(30)
class MemoryConnectTest {

  @Test
  void readsMemoryUrisWithOrWithoutAName() {
    assertThat(BackendUri.parse("memory://").backend()).isEqualTo(Backend.MEMORY);
    assertThat(BackendUri.parse("MEMORY://orders").backend()).isEqualTo(Backend.MEMORY);
    assertThat(BackendUri.parse("memory://orders").address()).isEqualTo("orders");
    assertThat(Backend.MEMORY.isAvailable()).isTrue();
    assertThat(Backend.MEMORY.module()).isEqualTo("baton-core");
  }

  @Test
  void sharesTheStoreOfItsNameWithMemoryLockClient() throws Exception {
    LockOptions options = LockOptions.defaults().withTtl(Duration.ofSeconds(5));
    try (LockClient connected = LockClients.connect("memory://connect-shared", options);
        LockClient direct = MemoryLockClient.connect("memory://connect-shared");
        LockClient elsewhere = LockClients.connect("memory://connect-elsewhere");
        Lease lease = connected.lock("k").acquire()) {
      assertThat(connected.backendName()).isEqualTo("memory");
      assertThat(connected.defaultOptions()).isEqualTo(options);
      assertThat(direct.status("k").ownerId()).contains(lease.ownerId());
      assertThat(elsewhere.status("k").isHeld()).isFalse();
    }
  }

  @Test
  void aNamespaceSeparatesKeysAndServerSettingsAreIgnored() throws Exception {
    ConnectionSettings settings = ConnectionSettings.builder("memory://connect-settings").namespace("team/orders")
        .connectTimeout(Duration.ofSeconds(1)).commandTimeout(Duration.ofSeconds(1))
        .sessionTimeout(Duration.ofSeconds(3)).credentials(null, "secret")
        .tls(Path.of("ca.pem"), Path.of("cert.pem"), Path.of("key.pem")).build();
    try (LockClient orders = LockClients.connect(settings);
        LockClient sameNamespace = LockClients.connect(ConnectionSettings.builder("memory://connect-settings")
            .namespace("team/orders").build());
        LockClient plain = LockClients.connect("memory://connect-settings");
        Lease lease = orders.lock("namespaced").acquire()) {
      assertThat(sameNamespace.status("namespaced").isHeld()).isTrue();
      assertThat(plain.status("namespaced").isHeld()).isFalse();
    }
  }

  @Test
  void refusesWhatNamesNoStoreOrAsksForACompatMode() {
    assertThatThrownBy(() -> LockClients.connect("memory://host:6379")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'memory://host:6379'").hasMessageContaining("memory://NAME");
    assertThatThrownBy(() -> LockClients.connect("memory://orders?compat=redisson"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("compat=redisson");
  }
}
