package dev.baton.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.DistributedLock;
import dev.baton.Lease;
import dev.baton.LockClient;
import dev.baton.embedded.internal.Loopback;
import dev.baton.servers.TcpProxy;
import dev.baton.testkit.BackgroundCall;
import dev.baton.testkit.RedisServerExtension;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A release sent ahead of its answer (the Lock methods' unlock(), LockBackend.releaseInOrder) is served before the same
 * client's next request for the key only if the server runs it at once. One that meets NOSCRIPT (a restarted or
 * failed-over server, a SCRIPT FLUSH) is sent again by EVAL when that answer comes back, after requests the client sent
 * meanwhile: those must still see the key as released, as they would after an answered release.
 *
 * <p>The proxy holds the server's replies back, so that the NOSCRIPT answer comes only after the next request has been
 * served; the server caches the script of that request (acquire.lua, list.lua) but not the release's, as after a
 * failover to a server that only acquires had run scripts on.
 */
@Timeout(60)
class RedisReleaseAheadTest {
  @RegisterExtension
  static final RedisServerExtension redis = new RedisServerExtension();

  private static final Duration PROMPTLY = Duration.ofSeconds(10);

  @Test
  void aTryOfTheSameClientRightAfterAnUnlockWhoseReleaseMetNoscriptIsGranted() throws Exception {
    try (TcpProxy proxy = TcpProxy.start(Loopback.HOST, redis.server().port());
        LockClient client = RedisLockClient.connect("redis://" + proxy.address())) {
      DistributedLock lock = client.lock("ahead/try");
      lock.lock();
      cacheOnly("acquire.lua");
      long served = evalshaCalls();
      proxy.delayReplies();
      lock.unlock(); // EVALSHA of release.lua sent; its NOSCRIPT held up in the proxy
      BackgroundCall<Boolean> trying = BackgroundCall.start("same-client-try", () -> tryOnce(client.lock("ahead/try")));
      await("the release and the try served").until(() -> evalshaCalls() >= served + 2);
      proxy.deliverReplies();

      assertThat(trying.result(PROMPTLY)).as("a try of the same client after unlock()").isTrue();
    }
  }

  @Test
  void theStatusReadByTheSameClientRightAfterAnUnlockWhoseReleaseMetNoscriptIsFree() throws Exception {
    try (TcpProxy proxy = TcpProxy.start(Loopback.HOST, redis.server().port());
        LockClient client = RedisLockClient.connect("redis://" + proxy.address())) {
      DistributedLock lock = client.lock("ahead/status");
      lock.lock();
      cacheOnly("list.lua");
      long served = evalshaCalls();
      proxy.delayReplies();
      lock.unlock();
      BackgroundCall<Boolean> reading = BackgroundCall.start("same-client-status",
          () -> client.status("ahead/status").isHeld());
      await("the release and the read served").until(() -> evalshaCalls() >= served + 2);
      proxy.deliverReplies();

      assertThat(reading.result(PROMPTLY)).as("the same client's status after unlock()").isFalse();
    }
  }

  /**
   * A multi-lock's script (acquire_in_order.lua) runs at the server but its answer comes after the command timeout:
   * the client releases what it may have taken (sent behind the script on the one connection, so applied after it)
   * and takes the keys by the path that waits. Once the answers come, the multi-lock holds every key under its own
   * entries, and nothing of the script's is left.
   */
  @Test
  void aMultiLockScriptAnsweredAfterItsTimeoutLeavesNothingBehindAndTheKeysAreTakenAgain() throws Exception {
    List<String> keys = List.of("ahead/late/a", "ahead/late/b", "ahead/late/c");
    try (TcpProxy proxy = TcpProxy.start(Loopback.HOST, redis.server().port());
        LockClient client = RedisLockClient.builder().uri("redis://" + proxy.address())
            .commandTimeout(Duration.ofSeconds(1)).connect();
        LockClient observer = RedisLockClient.connect(redis.uri())) {
      client.multiLock(keys).acquire().close(); // the scripts are cached: each run below is one EVALSHA
      long served = evalshaCalls();
      proxy.delayReplies();
      BackgroundCall<Lease> acquiring = BackgroundCall.start("multi", () -> client.multiLock(keys)
          .acquire(Duration.ofSeconds(30)));
      await("the script and the releases of what it took, served").atMost(PROMPTLY.multipliedBy(3))
          .until(() -> evalshaCalls() >= served + 1 + keys.size());
      proxy.deliverReplies();

      try (Lease lease = acquiring.result(PROMPTLY.multipliedBy(3))) {
        assertThat(lease.isHeld()).isTrue();
        for (String key : keys) {
          assertThat(observer.status(key).fencingToken()).as("the entry of %s", key).hasValue(lease.fencingToken(key));
        }
      }
      for (String key : keys) {
        assertThat(observer.status(key).isHeld()).as("%s after the release", key).isFalse();
      }
    }
  }

  private static boolean tryOnce(DistributedLock lock) {
    if (!lock.tryLock()) {
      return false;
    }
    lock.unlock();
    return true;
  }

  /** Empties the server's script cache, then caches {@code script} alone. */
  private static void cacheOnly(String script) throws IOException {
    redis.command("SCRIPT", "FLUSH");
    try (InputStream in = RedisBackend.class.getResourceAsStream(script)) {
      redis.command("SCRIPT", "LOAD", new String(in.readAllBytes(), StandardCharsets.UTF_8));
    }
  }

  /** EVALSHA commands the server has served, a NOSCRIPT answer included. */
  private static long evalshaCalls() {
    String stats = (String) redis.command("INFO", "commandstats");
    return stats.lines()
        .filter(line -> line.startsWith("cmdstat_evalsha:"))
        .map(line -> line.replaceAll("^[^:]*:calls=(\\d+),.*rejected_calls=(\\d+),failed_calls=(\\d+).*$",
            "$1 $2"))
        .mapToLong(counts -> Long.parseLong(counts.split(" ")[0]) + Long.parseLong(counts.split(" ")[1]))
        .findFirst()
        .orElse(0L);
  }
}
