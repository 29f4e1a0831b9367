package dev.baton.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Lease;
import dev.baton.LockClient;
import dev.baton.redis.RedisLockClient;
import dev.baton.testkit.RedisServerExtension;
import java.net.ServerSocket;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code baton status} against a real Redis: the holder, its token and ttl, as text and JSON; the key given as the
 * argument ({@code status -b URI KEY}) or as {@code --key}.
 */
@Timeout(60)
class StatusIT {
  @RegisterExtension
  static final RedisServerExtension redis = new RedisServerExtension();

  @TempDir
  Path dir;

  @Test
  void showsAFreeLock() throws Exception {
    try (BatonProcess status = BatonProcess.start(dir, "status", "-b", redis.uri(), "reports/free")) {
      assertThat(status.awaitExit()).isZero();
      assertThat(status.output()).contains("reports/free", "free");
    }
  }

  @Test
  void showsTheHolderItsTokenAndTtlAsTextAndJson() throws Exception {
    try (LockClient client = RedisLockClient.connect(redis.uri()); Lease lease = client.lock("reports/held").acquire()) {
      String text = finished(0, "status", "-b", redis.uri(), "reports/held");
      assertThat(text).contains("held", lease.ownerId(), Long.toString(lease.fencingToken()), "ttl left");
      assertThat(text.lines()).as("the holder").contains("pid       " + ProcessHandle.current().pid(),
          "thread    " + Thread.currentThread().getName());
      assertThat(text).containsPattern("(?m)^host      \\S+$").containsPattern("(?m)^since     \\S+Z \\(\\d+s ago\\)$");

      String json = finished(0, "status", "--backend", redis.uri(), "--key", "reports/held",
          "--json");
      assertThat(json.trim()).startsWith("{\"key\":\"reports/held\",\"held\":true,\"owner\":\"" + lease.ownerId() + "\"")
          .contains("\"fencingToken\":" + lease.fencingToken(), "\"remainingTtlMillis\":", "\"waiters\":0}")
          .contains("\"holder\":{\"host\":\"", ",\"pid\":" + ProcessHandle.current().pid() + ",\"thread\":\""
              + Thread.currentThread().getName() + "\",\"acquiredAt\":\"");
    }
  }

  @Test
  void anUnreachableBackendExits69AndABadOneExits64() throws Exception {
    int closed;
    try (ServerSocket socket = new ServerSocket(0)) {
      closed = socket.getLocalPort();
    }
    assertThat(finished(ExitCodes.UNAVAILABLE, "status", "--backend", "redis://127.0.0.1:" + closed, "--key", "k"))
        .startsWith("baton: ").contains("127.0.0.1:" + closed).doesNotContain("Exception");
    assertThat(finished(ExitCodes.USAGE, "status", "--backend", "mysql://127.0.0.1", "--key", "k")).contains("mysql://127.0.0.1");
    assertThat(finished(ExitCodes.USAGE, "status", "-b", redis.uri())).contains("missing KEY");
  }

  /** Runs baton to its end, checks its exit status, and returns what it printed. */
  private String finished(int exitStatus, String... args) throws InterruptedException {
    try (BatonProcess baton = BatonProcess.start(dir, args)) {
      assertThat(baton.awaitExit()).as(baton.output()).isEqualTo(exitStatus);
      return baton.output();
    }
  }
}
