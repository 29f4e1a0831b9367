package dev.baton.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.servers.TlsCertificates;
import dev.baton.testkit.EtcdServerExtension;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** An etcd that serves clients over TLS only: the command takes its files from the environment. */
@Timeout(60)
class SecuredBackendIT {
  @RegisterExtension
  static final EtcdServerExtension etcd = EtcdServerExtension.withTls();

  @TempDir
  Path dir;

  @Test
  void execRunsOnEtcdOverTlsWithTheFilesFromTheEnvironment() throws Exception {
    TlsCertificates tls = etcd.tls();
    Map<String, String> environment = Map.of("BATON_TLS_CA", tls.ca().toString(),
        "BATON_TLS_CERT", tls.clientCertificate().toString(), "BATON_TLS_KEY", tls.clientKey().toString());
    try (BatonProcess exec = BatonProcess.start(dir, environment, "exec", "--backend", etcd.endpoint(), "--key", "tls",
        "--", "sh", "-c", "echo held $BATON_FENCING_TOKEN")) {
      assertThat(exec.awaitExit()).as(exec.output()).isZero();
      assertThat(exec.output()).contains("held ");
    }
  }

  @Test
  void withoutTheFilesTheStoreIsUnreachableAndTheMessageSaysWhy() throws Exception {
    try (BatonProcess status = BatonProcess.start(dir, "status", "--backend", etcd.endpoint(), "--key", "tls")) {
      assertThat(status.awaitExit()).isEqualTo(ExitCodes.UNAVAILABLE);
      assertThat(status.output()).contains("certificate");
    }
  }
}
