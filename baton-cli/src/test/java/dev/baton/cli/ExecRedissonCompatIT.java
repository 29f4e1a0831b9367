package dev.baton.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.testkit.RedisServerExtension;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code baton exec --backend 'redis://...?compat=redisson'} from the shell, against a lock written and released
 * exactly as Redisson's {@code RLock} writes and releases it (RedissonInteropTest runs Redisson itself): it waits
 * for that holder, is woken by Redisson's unlock message, and its own holding is the hash Redisson finds taken;
 * status, list and exec say the same of what others wrote at a name, and print it escaped.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class ExecRedissonCompatIT {
  /** The holder's lease: far beyond the waits below, so that only the unlock message lets the waiter in. */
  private static final String LEASE_MILLIS = "120000";
  /** A Redisson holder's field: its client's UUID and its thread's id. */
  private static final String REDISSON_HOLDER = "0b4e6c1a-5f2e-4b8e-9a57-3c1d2e4f5a6b:1";

  @RegisterExtension
  static final RedisServerExtension redis = new RedisServerExtension();

  @TempDir
  Path dir;

  @Test
  void batonExecWaitsForARedissonHolderAndIsWokenByItsUnlockMessage() throws Exception {
    redis.command("HSET", "nightly", REDISSON_HOLDER, "1");
    redis.command("PEXPIRE", "nightly", LEASE_MILLIS);
    assertThat(BatonProcess.run(dir, "exec", "--backend", backend(), "--key", "nightly", "--wait", "0", "--",
        "touch", "ran")).as("while Redisson holds").isEqualTo(ExitCodes.NOT_ACQUIRED);
    assertThat(dir.resolve("ran")).doesNotExist();

    try (BatonProcess waiter = BatonProcess.start(dir, "exec", "--backend", backend(), "--key", "nightly", "--wait",
        "20s", "--", "touch", "ran")) {
      await("baton exec subscribed to Redisson's unlock channel").atMost(Duration.ofSeconds(20))
          .until(() -> waiters("redisson_lock__channel:{nightly}") == 1L);
      redis.command("DEL", "nightly");
      redis.command("PUBLISH", "redisson_lock__channel:{nightly}", "0");
      assertThat(waiter.awaitExit()).as("once Redisson unlocked").isZero();
    }
    assertThat(dir.resolve("ran")).exists();
    assertThat(redis.command("EXISTS", "nightly")).as("nothing left after the release").isEqualTo(0L);
  }

  @Test
  void whileBatonExecHoldsTheHashIsTakenAsRedissonSeesIt() throws Exception {
    try (BatonProcess holder = BatonProcess.start(dir, "exec", "--backend", backend(), "--key", "report", "--", "sh",
        "-c", "echo holding; exec sleep 30")) {
      holder.awaitLine("holding");
      assertThat(redis.command("EXISTS", "report")).as("the hash Redisson's lock script finds").isEqualTo(1L);
      assertThat((Long) redis.command("PTTL", "report")).as("its lease").isPositive();
    }
  }

  @Test
  void aPlainRLockHolderShowsNoFencingToken() throws Exception {
    redis.command("HSET", "plain", REDISSON_HOLDER, "1");
    redis.command("PEXPIRE", "plain", LEASE_MILLIS);
    assertThat(finished(ExitCodes.OK, "status", "--json", "--backend", backend(), "--key", "plain"))
        .contains("\"held\":true", "\"owner\":\"" + REDISSON_HOLDER + "\"").doesNotContain("fencingToken");
    assertThat(finished(ExitCodes.OK, "status", "--backend", backend(), "--key", "plain")).doesNotContain("token");
  }

  @Test
  void aHashNoLockWroteWithoutExpiryIsHeldForStatusAndExecAlike() throws Exception {
    redis.command("HSET", "settings", "color", "blue");
    assertThat(finished(ExitCodes.OK, "status", "--backend", backend(), "--key", "settings"))
        .contains("held", "owner     unknown", "ttl left  none: it never expires");
    assertThat(finished(ExitCodes.NOT_ACQUIRED, "exec", "--backend", backend(), "--key", "settings", "--wait", "1s",
        "--", "touch", "ran")).startsWith("baton: Lock 'settings' on redis was not acquired within")
        .contains("held by an unknown holder", "with no expiry: nothing frees it but whoever wrote it");
    assertThat(dir.resolve("ran")).doesNotExist();
    assertThat(redis.command("HGET", "settings", "color")).isEqualTo("blue");
  }

  @Test
  void whatRedissonHasNoLayoutForIsAUsageError() throws Exception {
    assertThat(finished(ExitCodes.USAGE, "exec", "--backend", backend(), "--key", "shared", "--shared", "--",
        "touch", "ran")).startsWith("baton exec: --shared is not available here: ").contains("compat=redisson")
        .endsWith("see 'baton exec --help'");
    assertThat(finished(ExitCodes.USAGE, "exec", "--backend", backend(), "--key", "permits", "--permits", "2", "--",
        "touch", "ran")).startsWith("baton exec: --permits is not available here: ");
    assertThat(dir.resolve("ran")).doesNotExist();
  }

  @Test
  void namesAPeerWroteArePrintedEscapedInTextAndJson() throws Exception {
    String hostile = "evil\n\u001b[2Jname";
    redis.command("HSET", hostile, REDISSON_HOLDER, "1");
    redis.command("PEXPIRE", hostile, LEASE_MILLIS);
    String table = finished(ExitCodes.OK, "list", "--prefix", "evil", "--backend", backend());
    assertThat(table.lines()).as(table).hasSize(2);
    assertThat(table).doesNotContain("\u001b").contains("evil\\n\\u001b[2Jname");
    assertThat(finished(ExitCodes.OK, "list", "--json", "--prefix", "evil", "--backend", backend())).doesNotContain("\u001b", "\n")
        .contains("\"key\":\"evil\\u000a\\u001b[2Jname\"");
  }

  /** Runs baton with {@code args} to its end, checks its exit status, and returns what it printed. */
  private String finished(int status, String... args) throws InterruptedException {
    try (BatonProcess baton = BatonProcess.start(dir, args)) {
      assertThat(baton.awaitExit()).as(baton.output()).isEqualTo(status);
      return baton.output();
    }
  }

  private static long waiters(String channel) {
    return (Long) ((List<?>) redis.command("PUBSUB", "NUMSUB", channel)).get(1);
  }

  private static String backend() {
    return redis.uri() + "?compat=redisson";
  }
}
