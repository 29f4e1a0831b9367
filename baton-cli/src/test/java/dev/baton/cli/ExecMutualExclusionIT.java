package dev.baton.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.testkit.EmbeddedZooKeeperExtension;
import dev.baton.testkit.EtcdServerExtension;
import dev.baton.testkit.RedisServerExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Four {@code baton exec -b URI counter sh -c ...} processes at a time increment a counter file with a read, a pause
 * and a write; only mutual exclusion makes the count come out exact.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class ExecMutualExclusionIT {
  private static final int PROCESSES = 4;
  private static final int RUNS_EACH = 5;
  private static final String INCREMENT = "n=$(cat counter); sleep 0.05; echo $((n + 1)) > counter";

  @RegisterExtension
  static final RedisServerExtension redis = new RedisServerExtension();

  @RegisterExtension
  static final EmbeddedZooKeeperExtension zooKeeper = new EmbeddedZooKeeperExtension();

  @RegisterExtension
  static final EtcdServerExtension etcd = new EtcdServerExtension();

  @TempDir
  Path dir;

  @Test
  void redisCounterEndsExact() throws Exception {
    assertCounterEndsExact(redis.uri());
  }

  @Test
  void zooKeeperCounterEndsExact() throws Exception {
    assertCounterEndsExact("zookeeper://" + zooKeeper.connectString());
  }

  @Test
  void etcdCounterEndsExact() throws Exception {
    assertCounterEndsExact(etcd.endpoint().replace("http://", "etcd://"));
  }

  private void assertCounterEndsExact(String backend) throws Exception {
    Files.writeString(dir.resolve("counter"), "0\n");
    ExecutorService workers = Executors.newFixedThreadPool(PROCESSES);
    try {
      List<Future<List<Integer>>> statuses = new ArrayList<>();
      for (int i = 0; i < PROCESSES; i++) {
        statuses.add(workers.submit(() -> incrementRepeatedly(backend)));
      }
      for (Future<List<Integer>> worker : statuses) {
        assertThat(worker.get(2, TimeUnit.MINUTES)).as("exit statuses of one worker's runs").containsOnly(0);
      }
    } finally {
      workers.shutdownNow();
    }
    assertThat(Files.readString(dir.resolve("counter")).trim()).isEqualTo(Integer.toString(PROCESSES * RUNS_EACH));
  }

  private List<Integer> incrementRepeatedly(String backend) throws InterruptedException {
    List<Integer> statuses = new ArrayList<>();
    for (int run = 0; run < RUNS_EACH; run++) {
      // flock's form: the key first, then the command, its -c its own.
      statuses.add(BatonProcess.run(dir, "exec", "-b", backend, "counter", "sh", "-c", INCREMENT));
    }
    return statuses;
  }
}
