package dev.baton.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.LockHolder;
import dev.baton.testkit.RedisServerExtension;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code baton exec --shared} under a read lock and {@code --permits N} under a semaphore, between real processes, and
 * {@code baton status} counting them.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class ExecModesIT {
  private static final String HOLD = "echo holding; exec sleep 30";

  @RegisterExtension
  static final RedisServerExtension redis = new RedisServerExtension();

  @TempDir
  Path dir;

  @Test
  void sharedRunsHoldTogetherAndExcludeAnExclusiveOne() throws InterruptedException {
    try (BatonProcess reader = exec("shared", "--shared", "--", "sh", "-c", HOLD)) {
      reader.awaitLine("holding");
      try (BatonProcess second = exec("shared", "--shared", "--", "sh", "-c", HOLD)) {
        second.awaitLine("holding");
        assertThat(status("shared")).contains("state     held by 2 readers (the oldest below)");
        assertThat(status("shared", "--json")).contains("\"mode\":\"SHARED\",\"holders\":2,\"waiters\":");
      }
      assertThat(run("shared", "--wait", "0", "--", "touch", "ran")).as("an exclusive run while one reads")
          .isEqualTo(ExitCodes.NOT_ACQUIRED);
      assertThat(dir.resolve("ran")).doesNotExist();
    }
  }

  @Test
  void anExclusiveRunExcludesSharedOnes() throws InterruptedException {
    try (BatonProcess writer = exec("written", "--", "sh", "-c", HOLD)) {
      writer.awaitLine("holding");
      assertThat(run("written", "--shared", "--wait", "0", "--", "true")).isEqualTo(ExitCodes.NOT_ACQUIRED);
    }
  }

  @Test
  void permitsAdmitAsManyRunsAsTheyNumber() throws InterruptedException {
    try (BatonProcess first = exec("slots", "--permits", "2", "--ttl", "2s", "--", "sh", "-c", HOLD);
        BatonProcess second = exec("slots", "--permits", "2", "--", "sh", "-c", HOLD)) {
      first.awaitLine("holding");
      second.awaitLine("holding");
      assertThat(run("slots", "--permits", "2", "--wait", "0", "--", "true")).as("a third run of two permits")
          .isEqualTo(ExitCodes.NOT_ACQUIRED);
      assertThat(status("slots")).contains("state     held by 2 of 2 permits (the oldest below)");
      assertThat(status("slots", "--json")).contains("\"mode\":\"PERMIT\",\"holders\":2,\"permits\":2,\"waiters\":");
      first.close(); // killed: its permit is free once its 2 s ttl has passed
      assertThat(run("slots", "--permits", "2", "--wait", "20s", "--", "true")).as("once a permit is free").isZero();
    }
  }

  @Test
  void repeatedKeysRunUnderEveryLockAtOnceAndLetGoOfThemIfOneIsTaken() throws InterruptedException {
    String show = "printf 'keys=%s\\n' \"$BATON_KEYS\"; printf 'tokens=%s\\n' \"$BATON_FENCING_TOKENS\"; " + HOLD;
    try (BatonProcess both = exec("acct/2", "--key", "acct/1", "--ttl", "2s", "--", "sh", "-c", show)) {
      both.awaitLine("holding");
      assertThat(both.output()).contains("keys=acct/1\nacct/2\n").containsPattern("tokens=\\d+\n\\d+\n");
      String set = LockHolder.MultiLock.of(List.of("acct/1", "acct/2")).set();
      for (String key : List.of("acct/1", "acct/2")) {
        assertThat(status(key)).as("the status of %s", key).contains("multi     one of 2 keys held together, set " + set);
      }
      try (BatonProcess list = BatonProcess.start(dir, new String[] {"list", "--backend", redis.uri(), "--prefix",
          "acct/"})) {
        assertThat(list.awaitExit()).as(list.output()).isZero();
        assertThat(list.output().lines()).first().asString().endsWith("MULTI-LOCK");
        assertThat(list.output().lines().skip(1)).hasSize(2).allSatisfy(row -> assertThat(row).endsWith(set + " (2 keys)"));
      }
      assertThat(run("acct/1", "--wait", "0", "--", "true")).as("a run of one of the keys")
          .isEqualTo(ExitCodes.NOT_ACQUIRED);
      assertThat(run("acct/0", "--key", "acct/1", "--wait", "0", "--", "true")).as("a run of overlapping keys")
          .isEqualTo(ExitCodes.NOT_ACQUIRED);
      assertThat(run("acct/0", "--wait", "0", "--", "true")).as("the key the overlapping run let go of").isZero();
    } // killed: its keys are free once its 2 s ttl has passed
    assertThat(run("acct/0", "--key", "acct/1", "--key", "acct/2", "--wait", "20s", "--", "true")).isZero();
  }

  @Test
  void aModeIsOneOfTheTwoAndPermitsAreAtLeastOne() throws InterruptedException {
    assertThat(run("bad", "--permits", "0", "--", "true")).isEqualTo(ExitCodes.USAGE);
    assertThat(run("bad", "--shared", "--permits", "2", "--", "true")).isEqualTo(ExitCodes.USAGE);
  }

  /** What {@code baton status} prints of {@code key}, with {@code more} options. */
  private String status(String key, String... more) throws InterruptedException {
    try (BatonProcess status = BatonProcess.start(dir, args("status", key, more))) {
      assertThat(status.awaitExit()).as(status.output()).isZero();
      return status.output();
    }
  }

  private BatonProcess exec(String key, String... rest) {
    return BatonProcess.start(dir, args("exec", key, rest));
  }

  private int run(String key, String... rest) throws InterruptedException {
    return BatonProcess.run(dir, args("exec", key, rest));
  }

  /** {@code command --backend REDIS --key key rest...}. */
  private static String[] args(String command, String key, String... rest) {
    String[] args = new String[5 + rest.length];
    args[0] = command;
    args[1] = "--backend";
    args[2] = redis.uri();
    args[3] = "--key";
    args[4] = key;
    System.arraycopy(rest, 0, args, 5, rest.length);
    return args;
  }
}
