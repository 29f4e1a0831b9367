package dev.baton.etcd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.BackendUnavailableException;
import dev.baton.Lease;
import dev.baton.LockClient;
import dev.baton.LockOptions;
import dev.baton.servers.TlsCertificates;
import dev.baton.testkit.EtcdServerExtension;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/** A member that serves clients over TLS only and asks them for a certificate signed by its authority. */
class EtcdTlsTest {
  @RegisterExtension
  static final EtcdServerExtension etcd = EtcdServerExtension.withTls();

  private final List<LockClient> clients = new ArrayList<>();

  @AfterEach
  void closeClients() {
    clients.forEach(LockClient::close);
  }

  private EtcdLockClient.Builder builder() {
    return EtcdLockClient.builder().endpoints(etcd.endpoint()).sessionTimeout(Duration.ofSeconds(3))
        .commandTimeout(Duration.ofSeconds(2));
  }

  private LockClient connect(EtcdLockClient.Builder builder) {
    LockClient client = builder.connect();
    clients.add(client);
    return client;
  }

  private EtcdLockClient.Builder trusted() {
    TlsCertificates tls = etcd.tls();
    return builder().trustedCa(tls.ca()).clientCertificate(tls.clientCertificate(), tls.clientKey());
  }

  @Test
  @Timeout(30)
  void aClientWithTheAuthorityAndACertificateLocksWaitsAndIsWokenOverTls() throws Exception {
    assertThat(etcd.endpoint()).startsWith("https://");
    LockClient holder = connect(trusted());
    LockClient waiter = connect(trusted());
    Lease held = holder.lock("tls/key").acquire(Duration.ofSeconds(5));
    CompletableFuture<Lease> waiting = waiter.lock("tls/key")
        .acquireAsync(LockOptions.defaults().withWaitTime(Duration.ofSeconds(20)));
    await().until(() -> waiter.status("tls/key").waiters() == 1);
    held.close();
    try (Lease next = waiting.get(10, TimeUnit.SECONDS)) {
      assertThat(next.fencingToken()).isGreaterThan(held.fencingToken());
    }
    assertThat(holder.status("tls/key").isHeld()).isFalse();
  }

  @Test
  @Timeout(30)
  void aClientWithoutACertificateIsRefusedAndToldToCheckTheCertificates() {
    assertThatThrownBy(() -> connect(builder().trustedCa(etcd.tls().ca())))
        .isInstanceOf(BackendUnavailableException.class)
        .hasMessageContaining(etcd.endpoint())
        .hasMessageContaining("certificate");
  }

  @Test
  @Timeout(30)
  void aClientThatDoesNotTrustTheAuthorityIsRefused() {
    TlsCertificates tls = etcd.tls();
    assertThatThrownBy(() -> connect(builder().clientCertificate(tls.clientCertificate(), tls.clientKey())))
        .isInstanceOf(BackendUnavailableException.class)
        .hasMessageContaining("certificate");
  }

  @Test
  void tlsFilesWithPlainHttpEndpointsAreRefusedBeforeConnecting() {
    assertThatThrownBy(() -> EtcdLockClient.builder().endpoints("http://127.0.0.1:1").trustedCa(etcd.tls().ca()).connect())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("https://");
  }

  @Test
  void aMissingOrMalformedTlsFileIsNamed() {
    Path missing = Path.of("/nonexistent/ca.crt");
    assertThatThrownBy(() -> EtcdLockClient.builder().trustedCa(missing))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(missing.toString());
    TlsCertificates tls = etcd.tls();
    assertThatThrownBy(() -> builder().trustedCa(tls.ca()).clientCertificate(tls.clientKey(), tls.clientCertificate()).connect())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(tls.clientKey().toString())
        .hasMessageContaining("PKCS#8");
  }

  @Test
  void mixedHttpAndHttpsEndpointsAreRefused() {
    assertThatThrownBy(() -> EtcdLockClient.builder().endpoints("http://127.0.0.1:1,https://127.0.0.1:2"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("mix");
  }
}
