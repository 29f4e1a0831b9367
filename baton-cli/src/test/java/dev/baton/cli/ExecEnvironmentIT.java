package dev.baton.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.testkit.EmbeddedZooKeeperExtension;
import dev.baton.testkit.EtcdServerExtension;
import dev.baton.testkit.RedisServerExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** What the command of {@code baton exec} finds in its environment. */
@Timeout(value = 1, unit = TimeUnit.MINUTES)
class ExecEnvironmentIT {
  private static final String SAVE_ENVIRONMENT =
      "printf '%s\\n' \"$BATON_KEY\" \"$BATON_BACKEND\" \"$BATON_FENCING_TOKEN\" > \"$1\"";

  @RegisterExtension
  static final RedisServerExtension redis = new RedisServerExtension();

  @RegisterExtension
  static final EmbeddedZooKeeperExtension zooKeeper = new EmbeddedZooKeeperExtension();

  @RegisterExtension
  static final EtcdServerExtension etcd = new EtcdServerExtension();

  @TempDir
  Path dir;

  @Test
  void redisTokensGrowFromOneHolderToTheNext() throws Exception {
    assertTokensGrow(redis.uri());
  }

  @Test
  void zooKeeperTokensGrowFromOneHolderToTheNext() throws Exception {
    assertTokensGrow("zookeeper://" + zooKeeper.connectString());
  }

  @Test
  void etcdTokensGrowFromOneHolderToTheNext() throws Exception {
    assertTokensGrow(etcd.endpoint().replace("http://", "etcd://"));
  }

  @Test
  void theCommandSeesTheKeyAndTheBackendWithoutItsPassword() throws Exception {
    redis.command("ACL", "SETUSER", "ops", "on", ">s3cret", "~*", "&*", "+@all");
    String withPassword = "redis://ops:s3cret@127.0.0.1:" + redis.server().port();
    try (BatonProcess baton = BatonProcess.start(dir, Map.of(Backends.ENV, withPassword), "exec", "--key", "env",
        "--", "sh", "-c", "echo \"key=$BATON_KEY backend=$BATON_BACKEND\"")) {
      assertThat(baton.awaitExit()).as(baton.output()).isZero();
      assertThat(baton.output()).isEqualTo("key=env backend=redis://ops@127.0.0.1:" + redis.server().port());
    }
  }

  /** Two holders one after the other: each sees the key and the backend, and the second a larger token. */
  private void assertTokensGrow(String backend) throws Exception {
    for (String file : new String[] {"first", "second"}) {
      assertThat(BatonProcess.run(dir, "exec", "--backend", backend, "--key", "tokens", "--", "sh", "-c",
          SAVE_ENVIRONMENT, "sh", file)).isZero();
    }
    List<String> first = Files.readAllLines(dir.resolve("first"));
    List<String> second = Files.readAllLines(dir.resolve("second"));
    assertThat(first).hasSize(3).startsWith("tokens", backend);
    assertThat(second).hasSize(3).startsWith("tokens", backend);
    assertThat(Long.parseLong(second.get(2))).isGreaterThan(Long.parseLong(first.get(2)));
  }
}
