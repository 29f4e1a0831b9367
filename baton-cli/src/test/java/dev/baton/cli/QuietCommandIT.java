package dev.baton.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.testkit.EmbeddedZooKeeperExtension;
import dev.baton.testkit.EtcdServerExtension;
import dev.baton.testkit.RedisServerExtension;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * baton is quiet unless told otherwise: a command that succeeds prints only what its command prints, on every store
 * (gRPC's java.util.logging said "Epoll available during static init of TcpMetrics" on etcd).
 */
@Timeout(60)
class QuietCommandIT {
  @RegisterExtension
  static final RedisServerExtension redis = new RedisServerExtension();

  @RegisterExtension
  static final EtcdServerExtension etcd = new EtcdServerExtension();

  @RegisterExtension
  static final EmbeddedZooKeeperExtension zookeeper = new EmbeddedZooKeeperExtension();

  @TempDir
  Path dir;

  @Test
  void execOnRedisPrintsOnlyTheCommandsOutput() throws Exception {
    assertPrintsOnlyTheCommand(redis.uri());
  }

  @Test
  void execOnEtcdPrintsOnlyTheCommandsOutput() throws Exception {
    assertPrintsOnlyTheCommand(etcd.endpoint());
  }

  @Test
  void execOnZooKeeperPrintsOnlyTheCommandsOutput() throws Exception {
    assertPrintsOnlyTheCommand("zookeeper://" + zookeeper.connectString());
  }

  private void assertPrintsOnlyTheCommand(String backend) throws Exception {
    try (BatonProcess exec = BatonProcess.start(dir, "exec", "--backend", backend, "--key", "quiet", "--", "echo", "ran")) {
      assertThat(exec.awaitExit()).as(exec.output()).isZero();
      assertThat(exec.output().strip()).isEqualTo("ran");
    }
  }
}
