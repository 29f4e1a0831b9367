package dev.baton.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Lease;
import dev.baton.LockClient;
import dev.baton.redis.RedisLockClient;
import java.net.ServerSocket;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import dev.baton.testkit.RedisServerExtension;

/** {@code baton status} against a real Redis. */
@Timeout(60)
class StatusIT {
  @RegisterExtension
  static final RedisServerExtension redis = new RedisServerExtension();

  @Test
  void showsAFreeLock() throws Exception {
    JarRun status = JarRun.run("status", "--backend", redis.uri(), "--key", "reports/free");

    assertThat(status.output()).contains("reports/free", "free");
    assertThat(status.exitCode()).isZero();
  }

  @Test
  void showsTheHolderItsTokenAndTtlAsTextAndJson() throws Exception {
    try (LockClient client = RedisLockClient.connect(redis.uri()); Lease lease = client.lock("reports/held").acquire()) {
      JarRun text = JarRun.run("status", "--backend", redis.uri(), "--key", "reports/held");
      assertThat(text.output()).contains("held", lease.ownerId(), Long.toString(lease.fencingToken()), "ttl left");

      JarRun json = JarRun.run("status", "--backend", redis.uri(), "--key", "reports/held", "--json");
      assertThat(json.output().trim()).startsWith("{\"key\":\"reports/held\",\"held\":true,\"owner\":\"" + lease.ownerId() + "\"")
          .contains("\"fencingToken\":" + lease.fencingToken(), "\"remainingTtlMillis\":", "\"waiters\":0}");
      assertThat(json.exitCode()).isZero();
    }
  }

  @Test
  void anUnreachableBackendExits69AndABadOneExits64() throws Exception {
    int closed;
    try (ServerSocket socket = new ServerSocket(0)) {
      closed = socket.getLocalPort();
    }
    JarRun unreachable = JarRun.run("status", "--backend", "redis://127.0.0.1:" + closed, "--key", "k");
    assertThat(unreachable.output()).startsWith("baton: ").contains("127.0.0.1:" + closed).doesNotContain("Exception");
    assertThat(unreachable.exitCode()).isEqualTo(ExitCodes.UNAVAILABLE);

    JarRun bad = JarRun.run("status", "--backend", "mysql://127.0.0.1", "--key", "k");
    assertThat(bad.output()).contains("mysql://127.0.0.1");
    assertThat(bad.exitCode()).isEqualTo(ExitCodes.USAGE);

    JarRun missing = JarRun.run("status", "--backend", redis.uri());
    assertThat(missing.output()).contains("--key");
    assertThat(missing.exitCode()).isEqualTo(ExitCodes.USAGE);
  }
}
