package dev.baton.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.Lease;
import dev.baton.LockClient;
import dev.baton.redis.RedisLockClient;
import dev.baton.testkit.EmbeddedZooKeeperExtension;
import dev.baton.testkit.EtcdServerExtension;
import dev.baton.testkit.MariaDbServerExtension;
import dev.baton.testkit.PostgresServerExtension;
import dev.baton.testkit.RedisServerExtension;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code baton revoke} against real stores: it asks the holder and says how many it asked; {@code baton exec
 * --on-revoke term} passes a request on to its command as SIGTERM, after which a waiting exec runs (on Redis, ZooKeeper,
 * etcd, PostgreSQL and MariaDB); by default exec ignores requests.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class RevokeIT {
  private static final String SLEEP = "echo running; exec sleep 60";

  @RegisterExtension
  static final RedisServerExtension redis = new RedisServerExtension();

  @RegisterExtension
  static final EmbeddedZooKeeperExtension zookeeper = new EmbeddedZooKeeperExtension();

  @RegisterExtension
  static final EtcdServerExtension etcd = new EtcdServerExtension();

  @RegisterExtension
  static final PostgresServerExtension postgres = new PostgresServerExtension();

  @RegisterExtension
  static final MariaDbServerExtension mariadb = new MariaDbServerExtension();

  @TempDir
  Path dir;

  @Test
  void asksTheHolderWhoKeepsTheLockUnlessItLetsGoAndAFreeKeyExitsOne() throws Exception {
    assertThat(finished(RevokeCommand.NO_HOLDER, "revoke", "-b", redis.uri(), "reports/free")).contains("free");
    try (LockClient client = RedisLockClient.connect(redis.uri()); Lease lease = client.lock("reports/held").acquire()) {
      AtomicInteger told = new AtomicInteger();
      lease.onReleaseRequested(told::incrementAndGet);
      assertThat(finished(ExitCodes.OK, "revoke", "--backend", redis.uri(), "--key", "reports/held"))
          .contains("asked 1 holder of 'reports/held'");
      await().atMost(Duration.ofSeconds(10)).until(() -> told.get() == 1);
      assertThat(lease.isHeld()).isTrue();
    }
  }

  @Test
  void onRedisExecWithOnRevokeTermStopsItsCommandAndAWaitingExecThenRuns() throws Exception {
    assertAWaitingExecRunsOnceTheHolderIsAsked(redis.uri());
  }

  @Test
  void onZooKeeperExecWithOnRevokeTermStopsItsCommandAndAWaitingExecThenRuns() throws Exception {
    assertAWaitingExecRunsOnceTheHolderIsAsked("zookeeper://" + zookeeper.connectString());
  }

  @Test
  void onEtcdExecWithOnRevokeTermStopsItsCommandAndAWaitingExecThenRuns() throws Exception {
    assertAWaitingExecRunsOnceTheHolderIsAsked(etcd.endpoint());
  }

  @Test
  void onPostgresExecWithOnRevokeTermStopsItsCommandAndAWaitingExecThenRuns() throws Exception {
    assertAWaitingExecRunsOnceTheHolderIsAsked(postgres.uri());
  }

  @Test
  void onMariaDbExecWithOnRevokeTermStopsItsCommandAndAWaitingExecThenRuns() throws Exception {
    assertAWaitingExecRunsOnceTheHolderIsAsked(mariadb.uri());
  }

  /** An exec with --on-revoke term holds, another waits; baton revoke ends the first's command, and the second runs. */
  private void assertAWaitingExecRunsOnceTheHolderIsAsked(String backend) throws Exception {
    try (BatonProcess holder = BatonProcess.start(dir, "exec", "-b", backend, "--on-revoke", "term", "deploy",
        "sh", "-c", SLEEP)) {
      holder.awaitLine("running");
      try (BatonProcess waiter = BatonProcess.start(dir, "exec", "-b", backend, "-w", "60", "deploy",
          "echo", "acquired")) {
        assertThat(finished(ExitCodes.OK, "revoke", "-b", backend, "deploy")).contains("asked 1 holder");
        assertThat(holder.awaitExit()).as("128 + SIGTERM").isEqualTo(143);
        assertThat(holder.output()).contains("asked to release the lock 'deploy'");
        waiter.awaitLine("acquired");
        assertThat(waiter.awaitExit()).isZero();
      }
    }
  }

  @Test
  void execIgnoresRequestsByDefault() throws Exception {
    try (BatonProcess holder = BatonProcess.start(dir, "exec", "-b", redis.uri(), "nightly", "sh", "-c", SLEEP)) {
      holder.awaitLine("running");
      assertThat(finished(ExitCodes.OK, "revoke", "-b", redis.uri(), "nightly")).contains("asked 1 holder");
      await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(5)).until(() -> holder.process().isAlive());
      holder.process().destroy();
      assertThat(holder.awaitExit()).isEqualTo(143);
    }
  }

  @Test
  void aStoreThatCannotDeliverRequestsIsAUsageError() throws Exception {
    assertThat(finished(ExitCodes.USAGE, "revoke", "-b", redis.uri() + "?compat=redisson", "deploy"))
        .contains("compat=redisson", "deploy");
  }

  /** Runs baton to its end, checks its exit status, and returns what it printed. */
  private String finished(int exitStatus, String... args) throws InterruptedException {
    try (BatonProcess baton = BatonProcess.start(dir, args)) {
      assertThat(baton.awaitExit()).as(baton.output()).isEqualTo(exitStatus);
      return baton.output();
    }
  }
}
