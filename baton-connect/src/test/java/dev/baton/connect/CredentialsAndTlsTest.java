package dev.baton.connect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.Lease;
import dev.baton.LockClient;
import dev.baton.servers.TlsCertificates;
import dev.baton.testkit.EmbeddedZooKeeperExtension;
import dev.baton.testkit.EtcdServerExtension;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Users, passwords and TLS files given beside the URI reach the backend that takes them, and only that one. */
@Timeout(30)
class CredentialsAndTlsTest {
  @RegisterExtension
  static final EtcdServerExtension tlsEtcd = EtcdServerExtension.withTls();
  @RegisterExtension
  static final EmbeddedZooKeeperExtension zooKeeper = new EmbeddedZooKeeperExtension();

  @Test
  void etcdOverTlsWithTheAuthorityAndAClientCertificate() throws Exception {
    TlsCertificates tls = tlsEtcd.tls();
    ConnectionSettings settings = ConnectionSettings.builder(tlsEtcd.endpoint())
        .tls(tls.ca(), tls.clientCertificate(), tls.clientKey()).build();
    try (LockClient client = LockClients.connect(settings); Lease lease = client.lock("tls/k").acquire()) {
      assertThat(client.status("tls/k").ownerId()).contains(lease.ownerId());
    }
  }

  @Test
  void aZooKeeperDigestUserLocks() throws Exception {
    ConnectionSettings settings = ConnectionSettings.builder("zookeeper://" + zooKeeper.connectString())
        .namespace("digest").credentials("billing", "s3cret").build();
    try (LockClient client = LockClients.connect(settings); Lease lease = client.lock("k").acquire()) {
      assertThat(lease.isHeld()).isTrue();
    }
  }

  @Test
  void tlsFilesApplyToEtcdOnlyAndComeAsCertificateAndKey() {
    Path file = Path.of("ca.crt");
    assertThatThrownBy(() -> ConnectionSettings.builder("zookeeper://127.0.0.1:2181").tls(file, null, null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("etcd");
    assertThatThrownBy(() -> ConnectionSettings.builder("etcd://127.0.0.1:2379").tls(null, file, null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("private key");
  }
}
