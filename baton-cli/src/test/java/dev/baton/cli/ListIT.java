package dev.baton.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Lease;
import dev.baton.LockClient;
import dev.baton.LockHolder;
import dev.baton.connect.LockClients;
import dev.baton.testkit.EmbeddedZooKeeperExtension;
import dev.baton.testkit.EtcdServerExtension;
import dev.baton.testkit.RedisServerExtension;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** {@code baton list}, and the holder in {@code baton status}, on the three stores: table and JSON. */
@Timeout(90)
class ListIT {
  @RegisterExtension
  static final RedisServerExtension redis = new RedisServerExtension();

  @RegisterExtension
  static final EtcdServerExtension etcd = new EtcdServerExtension();

  @RegisterExtension
  static final EmbeddedZooKeeperExtension zookeeper = new EmbeddedZooKeeperExtension();

  @TempDir
  Path dir;

  @Test
  void listsTheLocksHeldOnRedis() throws Exception {
    assertListsAndShowsHolders(redis.uri(), true);
  }

  @Test
  void listsTheLocksHeldOnEtcd() throws Exception {
    assertListsAndShowsHolders(etcd.endpoint(), true);
  }

  @Test
  void listsTheLocksHeldOnZooKeeper() throws Exception {
    assertListsAndShowsHolders("zookeeper://" + zookeeper.connectString(), false);
  }

  @Test
  void aBadLimitOrPrefixIsAUsageErrorNamingIt() throws Exception {
    assertThat(finished(ExitCodes.USAGE, "list", "--backend", redis.uri(), "--limit", "0"))
        .startsWith("baton list: ").contains("was 0");
    assertThat(finished(ExitCodes.USAGE, "list", "--backend", "zookeeper://" + zookeeper.connectString(),
        "--prefix", "orders//")).startsWith("baton list: ").contains("'orders//'");
    assertThat(finished(ExitCodes.OK, "list", "--backend", redis.uri(), "--prefix", "nothing/here/"))
        .isEqualTo("No lock is held under 'nothing/here/'.");
  }

  private void assertListsAndShowsHolders(String backend, boolean ttls) throws Exception {
    List<String> keys = List.of("jobs/nightly", "jobs/orders/42", "jobs/reports");
    try (LockClient client = LockClients.connect(backend); Lease outside = client.lock("other/job").acquire()) {
      List<Lease> leases = new ArrayList<>();
      try {
        for (String key : keys) {
          leases.add(client.lock(key).acquire());
        }
        LockHolder holder = client.status(keys.get(0)).holder().orElseThrow();

        List<String> table = lines(finished(0, "list", "--backend", backend, "--prefix", "jobs/"));
        assertThat(table).hasSize(1 + keys.size());
        assertThat(words(table.get(0)))
            .containsExactly("KEY", "HOLDERS", "HOST", "PID", "THREAD", "AGE", "TOKEN", "WAITERS", "TTL");
        for (int i = 0; i < keys.size(); i++) {
          List<String> row = words(table.get(i + 1));
          assertThat(row.subList(0, 5)).as(table.get(i + 1))
              .containsExactly(keys.get(i), "1", holder.host(), Long.toString(holder.pid()), holder.thread());
          assertThat(row.get(5)).matches("\\d+s");
          assertThat(row.get(6)).isEqualTo(Long.toString(leases.get(i).fencingToken()));
          assertThat(row.get(7)).isEqualTo("0");
          assertThat(String.join(" ", row.subList(8, row.size()))).matches(ttls ? "\\d+\\.\\d s" : "session");
        }

        List<String> first = lines(finished(0, "list", "--backend", backend, "--prefix", "jobs/", "--limit", "1"));
        assertThat(first).hasSize(3);
        assertThat(words(first.get(1)).get(0)).isEqualTo("jobs/nightly");
        assertThat(first.get(2)).contains("the first 1 by key", "--limit");

        String json = finished(0, "list", "--backend", backend, "--prefix", "jobs/", "--json").strip();
        assertThat(json).startsWith("[{\"key\":\"jobs/nightly\",\"held\":true,\"owner\":\"" + leases.get(0).ownerId() + "\"")
            .endsWith("\"waiters\":0}]")
            .contains("\"fencingToken\":" + leases.get(1).fencingToken(),
                "\"holder\":{\"host\":\"" + holder.host() + "\",\"pid\":" + holder.pid() + ",\"thread\":\""
                    + holder.thread() + "\",\"acquiredAt\":\"" + holder.acquiredAt() + "\"}",
                "{\"key\":\"jobs/reports\"")
            .doesNotContain("other/job");
        assertThat(ttls).isEqualTo(json.contains("\"remainingTtlMillis\":"));

        String status = finished(0, "status", "--backend", backend, "--key", "jobs/nightly");
        assertThat(lines(status)).contains("host      " + holder.host(), "pid       " + holder.pid(),
            "thread    " + holder.thread());
        assertThat(status).containsPattern("since     " + holder.acquiredAt().toString().substring(0, 19)
            + "[.0-9]*Z \\(\\d+s ago\\)");
      } finally {
        leases.forEach(Lease::close);
      }
    }
    assertThat(finished(0, "list", "--backend", backend, "--prefix", "jobs/")).isEqualTo("No lock is held under 'jobs/'.");
  }

  /** Runs baton to its end, checks its exit status, and returns what it printed. */
  private String finished(int exitStatus, String... args) throws InterruptedException {
    try (BatonProcess baton = BatonProcess.start(dir, args)) {
      assertThat(baton.awaitExit()).as(baton.output()).isEqualTo(exitStatus);
      return baton.output();
    }
  }

  private static List<String> lines(String output) {
    return output.lines().toList();
  }

  private static List<String> words(String line) {
    return Arrays.asList(line.trim().split("\\s+"));
  }
}
