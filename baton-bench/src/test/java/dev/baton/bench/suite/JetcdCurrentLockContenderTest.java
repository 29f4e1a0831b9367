package dev.baton.bench.suite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.testkit.EtcdServerExtension;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * jetcd's current line in a JVM of its own: its class path is that jetcd's and its dependencies' alone, and a load
 * run there comes back whole, every cycle's wait and time with the count.
 */
@Timeout(180)
class JetcdCurrentLockContenderTest {
  private static final String PEER_LIBRARY = "jetcd (peer JVM) ";

  @RegisterExtension
  static final EtcdServerExtension etcd = new EtcdServerExtension();

  @Test
  void thePeerClassPathHoldsJetcdsCurrentLineAndNothingOfTheBenchs() {
    String version = Versions.libraries().stream().filter(library -> library.startsWith(PEER_LIBRARY))
        .findFirst().orElseThrow().substring(PEER_LIBRARY.length());
    List<String> classPath = JetcdCurrentLockContender.classPath();

    assertThat(classPath).anyMatch(jar -> jar.endsWith("jetcd-core-" + version + ".jar"))
        .anyMatch(jar -> jar.contains("vertx-core-5."))
        .noneMatch(jar -> jar.contains("jetcd-core-0.7."))
        .noneMatch(jar -> jar.contains("vertx-core-4."))
        .noneMatch(jar -> jar.contains("/dev/baton/") || jar.contains("lettuce") || jar.contains("/org/apache/ant/"));
  }

  @Test
  void aLoadInThePeerJvmComesBackWithEveryCycle() throws Exception {
    try (JetcdCurrentLockContender jetcd = new JetcdCurrentLockContender(etcd.endpoint())) {
      Load.Result result = Load.run(jetcd, Hold.LOCK, List.of("k", "k", "other"), Duration.ofMillis(300));

      assertThat(result.cycles()).isPositive();
      assertThat(result.elapsedNanos()).isPositive();
      assertThat(result.waits().size()).isEqualTo((int) result.cycles());
      assertThat(result.cycleTimes().size()).isEqualTo((int) result.cycles());
      assertThatThrownBy(() -> Load.run(jetcd, Hold.READ_LOCK, List.of("k"), Duration.ofMillis(100)))
          .isInstanceOf(UnsupportedOperationException.class).hasMessageContaining("read lock");
    }
  }
}
