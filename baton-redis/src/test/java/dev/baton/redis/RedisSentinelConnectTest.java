package dev.baton.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.BackendUnavailableException;
import dev.baton.Lease;
import dev.baton.LockClient;
import dev.baton.PermissionDeniedException;
import dev.baton.embedded.internal.Loopback;
import dev.baton.servers.RedisSentinelSet;
import dev.baton.testkit.RedisSentinelExtension;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Connecting through sentinels: a sentinel that is down is skipped, the master's credentials work with sentinels
 * that have none, and a failure names the master and its sentinels, never the password.
 */
@Timeout(60)
class RedisSentinelConnectTest {
  @RegisterExtension
  static final RedisSentinelExtension redis = new RedisSentinelExtension();

  @BeforeAll
  static void addUser() {
    redis.command("ACL", "SETUSER", "locker", "on", ">s3cret", "~*", "&*", "+@all");
  }

  @AfterAll
  static void removeUser() {
    redis.command("ACL", "DELUSER", "locker");
  }

  @Test
  void aSentinelThatIsDownIsSkipped() throws Exception {
    String closed = Loopback.HOST + ":" + Loopback.freePort();
    String uri = redis.uri().replace("redis-sentinel://", "redis-sentinel://" + closed + ",");
    try (LockClient client = RedisLockClient.connect(uri);
        Lease lease = client.lock("connect/skipped").acquire(Duration.ofSeconds(5))) {
      assertThat(lease.isHeld()).isTrue();
      assertThat(redis.command("EXISTS", "baton:lock:connect/skipped")).isEqualTo(1L);
    }
  }

  /** Each hung sentinel costs a command timeout (2 s): the connect waits for as many as the URI names. */
  @Test
  void sentinelsThatHangAreSkippedWithinTheirTimeouts() throws Exception {
    try (ServerSocket first = hangingServer(); ServerSocket second = hangingServer()) {
      String uri = redis.uri().replace("redis-sentinel://", "redis-sentinel://" + Loopback.HOST + ":"
          + first.getLocalPort() + "," + Loopback.HOST + ":" + second.getLocalPort() + ",");
      try (LockClient client = RedisLockClient.connect(uri);
          Lease lease = client.lock("connect/hanging").acquire(Duration.ofSeconds(5))) {
        assertThat(lease.isHeld()).isTrue();
      }
    }
  }

  /** A port that takes connections (the kernel completes them) and never answers, as a hung server's does. */
  private static ServerSocket hangingServer() throws IOException {
    return new ServerSocket(0, 10, InetAddress.getByName(Loopback.HOST));
  }

  @Test
  void theMastersUserAndPasswordWorkWithSentinelsThatHaveNone() throws Exception {
    try (LockClient fromUri = RedisLockClient.connect(redis.uri().replace("://", "://locker:s3cret@"));
        LockClient fromCredentials =
            RedisLockClient.builder().uri(redis.uri()).credentials("locker", "s3cret").connect()) {
      fromUri.lock("connect/user").acquire(Duration.ofSeconds(5)).close();
      fromCredentials.lock("connect/user").acquire(Duration.ofSeconds(5)).close();
    }
  }

  @Test
  void aWrongPasswordIsRefusedWithoutShowingIt() {
    assertThatThrownBy(() -> RedisLockClient.builder().uri(redis.uri()).credentials("locker", "wrong-pw").connect())
        .isInstanceOf(PermissionDeniedException.class)
        .hasMessageContaining("WRONGPASS")
        .hasMessageContaining("master '" + RedisSentinelSet.MASTER_NAME + "' of sentinels " + Loopback.HOST + ":")
        .hasMessageNotContaining("wrong-pw");
  }

  @Test
  void aMasterTheSentinelsDoNotKnowFailsTheConnectNamingItAndTheSentinels() {
    String uri = redis.uri().replace("#" + RedisSentinelSet.MASTER_NAME, "#billing");
    assertThatThrownBy(() -> RedisLockClient.connect(uri.replace("://", "://:s3cret@")))
        .isInstanceOf(BackendUnavailableException.class)
        .hasMessageStartingWith("Cannot connect to Redis at master 'billing' of sentinels " + Loopback.HOST + ":")
        .hasMessageContaining("monitor a master named 'billing'")
        .hasMessageNotContaining("s3cret");
  }

  @Test
  void sentinelsThatCannotBeReachedFailTheConnectNamingThem() {
    String closed = Loopback.HOST + ":" + Loopback.freePort();
    assertThatThrownBy(() -> RedisLockClient.connect("redis-sentinel://:s3cret@" + closed + "#orders"))
        .isInstanceOf(BackendUnavailableException.class)
        .hasMessageStartingWith("Cannot connect to Redis at master 'orders' of sentinels " + closed + ":")
        .hasMessageNotContaining("s3cret");
  }
}
