package dev.baton.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.servers.EtcdHttp;
import java.time.Duration;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/** One etcd for the whole class, nested classes included. */
class EtcdServerExtensionTest {
  private static final Duration CALL = Duration.ofSeconds(5);

  @RegisterExtension
  static final EtcdServerExtension etcd = new EtcdServerExtension();

  @Test
  @Timeout(10)
  void servesForTheWholeClass() throws Exception {
    assertThat(etcd.server().isRunning()).isTrue();
    assertThat(etcd.endpoint()).isEqualTo("http://127.0.0.1:" + etcd.server().clientPort());
    EtcdHttp.put(etcd.server().clientPort(), "class-scoped", "yes", CALL);
  }

  @Nested
  class Inner {
    @Test
    @Timeout(10)
    void sharesTheOuterServer() {
      assertThat(etcd.server().isRunning()).isTrue();
      assertThat(EtcdHttp.isHealthy(etcd.server().clientPort(), CALL)).isTrue();
    }
  }
}
