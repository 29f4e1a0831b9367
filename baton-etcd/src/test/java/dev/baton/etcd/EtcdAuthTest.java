package dev.baton.etcd;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.Lease;
import dev.baton.LockClient;
import dev.baton.LockOptions;
import dev.baton.PermissionDeniedException;
import dev.baton.testkit.EtcdServerExtension;
import io.etcd.jetcd.Auth;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.auth.Permission;
import io.etcd.jetcd.options.OptionsUtil;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Users and passwords, on a server of this class's own with authentication enabled: {@code billing} may read and
 * write Baton's namespace, {@code stranger} may not.
 */
class EtcdAuthTest {
  @RegisterExtension
  static final EtcdServerExtension etcd = new EtcdServerExtension();

  private static final String ROOT_PASSWORD = "r00t";
  private static final Duration SESSION_TIMEOUT = Duration.ofSeconds(3);

  private static EtcdInspector inspector;
  private final List<LockClient> clients = new ArrayList<>();

  @BeforeAll
  static void enableAuthentication() throws Exception {
    try (Client admin = Client.builder().endpoints(etcd.endpoint()).build()) {
      Auth auth = admin.getAuthClient();
      await(auth.userAdd(bytes("root"), bytes(ROOT_PASSWORD)));
      await(auth.roleAdd(bytes("root")));
      await(auth.userGrantRole(bytes("root"), bytes("root")));
      ByteSequence namespace = bytes(EtcdLockClient.DEFAULT_NAMESPACE);
      await(auth.roleAdd(bytes("baton")));
      await(auth.roleGrantPermission(bytes("baton"), namespace, OptionsUtil.prefixEndOf(namespace), Permission.Type.READWRITE));
      await(auth.userAdd(bytes("billing"), bytes("s3cret")));
      await(auth.userGrantRole(bytes("billing"), bytes("baton")));
      await(auth.userAdd(bytes("stranger"), bytes("pw")));
      await(auth.authEnable());
    }
    inspector = EtcdInspector.as(etcd.endpoint(), "root", ROOT_PASSWORD);
  }

  @AfterAll
  static void stopInspecting() {
    inspector.close();
  }

  @AfterEach
  void closeClients() {
    clients.forEach(LockClient::close);
  }

  private LockClient client(String user, String password) {
    LockClient client = EtcdLockClient.builder().endpoints(etcd.endpoint()).sessionTimeout(SESSION_TIMEOUT)
        .commandTimeout(Duration.ofSeconds(2)).credentials(user, password).connect();
    clients.add(client);
    return client;
  }

  @Test
  @Timeout(30)
  void aUserAllowedOnTheNamespaceLocks() throws Exception {
    LockClient client = client("billing", "s3cret");
    EtcdMetrics metrics = new EtcdMetrics(etcd.endpoint());
    long watchersBefore = metrics.watchers();
    CompletableFuture<Lease> waiter;
    try (Lease lease = client.lock("auth/allowed").acquire(Duration.ofSeconds(5))) {
      assertThat(inspector.count("auth/allowed")).isEqualTo(1);
      assertThat(client.status("auth/allowed").ownerId()).contains(lease.ownerId());
      waiter = client("billing", "s3cret").lock("auth/allowed")
          .acquireAsync(LockOptions.defaults().withWaitTime(Duration.ofSeconds(20)));
      // The waiter's watch runs with the user's credentials too: etcd accepts it.
      Awaitility.await().until(() -> inspector.count("auth/allowed") == 2 && metrics.watchers() == watchersBefore + 1);
    }
    waiter.get(10, TimeUnit.SECONDS).close();
    assertThat(inspector.count("auth/allowed")).isZero();
  }

  @Test
  @Timeout(30)
  void aWrongPasswordFailsTheConnectAndSaysToCheckIt() {
    assertThatThrownBy(() -> client("billing", "wrong"))
        .isInstanceOf(PermissionDeniedException.class)
        .hasMessageContaining("password");
  }

  /**
   * etcd grants a lease to anyone, so a client without a user connects; its first acquire is refused at once, not
   * reported as "could not be reached" and retried for the whole wait as it was.
   */
  @Test
  @Timeout(30)
  void noUserIsRefusedAtOnce() {
    LockClient client = EtcdLockClient.builder().endpoints(etcd.endpoint()).sessionTimeout(SESSION_TIMEOUT)
        .commandTimeout(Duration.ofSeconds(2)).connect();
    clients.add(client);
    assertThatThrownBy(() -> client.lock("auth/anonymous").acquire(Duration.ofSeconds(20)))
        .isInstanceOf(PermissionDeniedException.class)
        .hasMessageContaining("auth/anonymous")
        .hasMessageContaining("BATON_USER");
  }

  @Test
  @Timeout(30)
  void aUserWithoutPermissionIsRefusedAtOnceAndLeavesNothingBehind() {
    LockClient client = client("stranger", "pw");
    long start = System.nanoTime();
    assertThatThrownBy(() -> client.lock("auth/refused").acquire(Duration.ofSeconds(10)))
        .isInstanceOf(PermissionDeniedException.class)
        .hasMessageContaining("auth/refused")
        .hasMessageContaining("permission");
    assertThat(Duration.ofNanos(System.nanoTime() - start)).as("time to refuse").isLessThan(Duration.ofSeconds(5));
    assertThat(inspector.count("auth/refused")).isZero();
  }

  private static ByteSequence bytes(String text) {
    return ByteSequence.from(text, UTF_8);
  }

  private static <T> T await(CompletableFuture<T> call) throws Exception {
    return call.get(5, TimeUnit.SECONDS);
  }
}
