package dev.baton.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.DistributedLock;
import dev.baton.Lease;
import dev.baton.LockClient;
import dev.baton.LockOptions;
import dev.baton.LockTimeoutException;
import dev.baton.servers.ProxiedTarget;
import dev.baton.testkit.BackgroundCall;
import dev.baton.testkit.MutualExclusionChecker;
import dev.baton.testkit.RedisServerExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A key that was released and that no one waits for leaves nothing at the store one ttl after its release (the lock
 * hash goes at the release, the yield after the yield time, the fencing counter one ttl after it last issued a
 * token; a crashed holder's lock one ttl after its last renewal), and its fencing tokens keep growing across the
 * counter's expiry.
 */
@Timeout(60)
class RedisKeyExpiryTest {
  @RegisterExtension
  static final RedisServerExtension redis = new RedisServerExtension();

  /** Short, so that the test is quick; long enough that a holder on a busy machine renews in time. */
  private static final Duration TTL = Duration.ofSeconds(1);
  private static final LockOptions SHORT_TTL = LockOptions.defaults().withTtl(TTL);
  /** The bound docs/redis.md states, one ttl, and time for the server to notice and the test to poll. */
  private static final Duration NOTHING_LEFT_WITHIN = TTL.plusSeconds(1);
  private static final Duration PROMPTLY = Duration.ofSeconds(5);

  private final List<LockClient> clients = new ArrayList<>();
  private final List<ProxiedTarget> proxies = new ArrayList<>();

  @AfterEach
  void closeClients() {
    clients.forEach(LockClient::close);
    proxies.forEach(ProxiedTarget::close);
  }

  private LockClient client(LockOptions defaults) {
    return client(redis.uri(), defaults);
  }

  private LockClient client(String uri, LockOptions defaults) {
    LockClient client = RedisLockClient.builder().uri(uri).defaultOptions(defaults).connect();
    clients.add(client);
    return client;
  }

  @Test
  void manyKeysUsedOnceLeaveNothingAtTheStoreOneTtlAfterTheirRelease() throws Exception {
    LockClient first = client(SHORT_TTL);
    LockClient second = client(SHORT_TTL);
    for (int i = 0; i < 300; i++) {
      (i % 2 == 0 ? first : second).lock("once-" + i).acquire().close();
    }
    for (int i = 0; i < 100; i++) {
      first.lock("hold-timeout-" + i).acquire(SHORT_TTL.withHoldTimeout(Duration.ofMillis(500))).close();
    }
    for (int i = 0; i < 5; i++) {
      second.lock("ended-by-hold-timeout-" + i).acquire(SHORT_TTL.withHoldTimeout(Duration.ofMillis(200)));
    }
    ProxiedTarget crashingTarget = ProxiedTarget.of(redis.uri());
    proxies.add(crashingTarget);
    LockClient crashing = client(crashingTarget.target(), SHORT_TTL);
    for (int i = 0; i < 5; i++) {
      crashing.lock("held-by-a-crashed-client-" + i).acquire();
    }
    crashingTarget.cut();
    for (int i = 0; i < 30; i++) {
      LockClient holder = i % 2 == 0 ? first : second;
      LockClient waiter = i % 2 == 0 ? second : first;
      String key = "contended-" + i;
      Lease held = holder.lock(key).acquire();
      CompletableFuture<Lease> waiting = waiter.lock(key).acquireAsync();
      awaitWaitingFlag(key);
      held.close();
      waiting.get(10, TimeUnit.SECONDS).close();
    }
    for (int i = 0; i < 5; i++) {
      String key = "timed-out-" + i;
      try (Lease held = first.lock(key).acquire()) {
        BackgroundCall<Lease> waiting = BackgroundCall.start("impatient-" + i, () -> second.lock(key).acquire(Duration.ofMillis(100)));
        assertThat(waiting.failure(PROMPTLY)).isInstanceOf(LockTimeoutException.class);
      }
    }
    for (int i = 0; i < 5; i++) {
      String key = "interrupted-" + i;
      try (Lease held = first.lock(key).acquire()) {
        BackgroundCall<Lease> waiting = BackgroundCall.start("interrupted-" + i, () -> second.lock(key).acquire());
        awaitWaitingFlag(key);
        waiting.interrupt();
        assertThat(waiting.failure(PROMPTLY)).isInstanceOf(InterruptedException.class);
      }
    }

    await("every baton key gone").atMost(NOTHING_LEFT_WITHIN).pollInterval(Duration.ofMillis(50))
        .untilAsserted(() -> assertThat(batonKeys()).isEmpty());
    assertThat(redis.command("DBSIZE")).isEqualTo(0L);
  }

  @Test
  void tokensOfAKeyKeepGrowingAcrossTheExpiryOfItsCounter() throws Exception {
    DistributedLock lock = client(SHORT_TTL).lock("grows");
    long before;
    try (Lease lease = lock.acquire()) {
      before = lease.fencingToken();
    }
    await("the counter's expiry").atMost(NOTHING_LEFT_WITHIN).pollInterval(Duration.ofMillis(20))
        .until(() -> redis.command("EXISTS", "baton:fence:grows").equals(0L));

    try (Lease lease = lock.acquire()) {
      assertThat(lease.fencingToken()).isGreaterThan(before);
    }
  }

  @Test
  void aKeyHeldLongerThanItsCounterLivesGetsALargerTokenNextTime() throws Exception {
    DistributedLock lock = client(SHORT_TTL).lock("held-long");
    long before;
    try (Lease lease = lock.acquire()) {
      before = lease.fencingToken();
      await("the counter's expiry while the lease is renewed").atMost(NOTHING_LEFT_WITHIN).pollInterval(Duration.ofMillis(20))
          .until(() -> redis.command("EXISTS", "baton:fence:held-long").equals(0L));
      assertThat(lease.isHeld()).isTrue();
    }

    try (Lease lease = lock.acquire()) {
      assertThat(lease.fencingToken()).isGreaterThan(before);
    }
  }

  @Test
  void aCounterAheadOfTheServersClockLivesUntilTheClockHasPassedIt() throws Exception {
    // As after the server's clock was stepped back by 20 s: the counter, not the clock, orders the tokens.
    long ahead = serverMicros() + 20_000_000;
    redis.command("SET", "baton:fence:ahead", Long.toString(ahead));
    try {
      try (Lease lease = client(SHORT_TTL).lock("ahead").acquire()) {
        assertThat(lease.fencingToken()).isEqualTo(ahead + 1);
      }
      long ttlMillis = (Long) redis.command("PTTL", "baton:fence:ahead");
      assertThat(ttlMillis).as("the counter's ms to live").isBetween(19_000L, 20_000L + TTL.toMillis() + 1);
    } finally {
      redis.command("DEL", "baton:fence:ahead");
    }
  }

  @Test
  void clientsOnAFewKeysExcludeEachOtherAndTokensOfEachKeyGrow() throws Exception {
    List<String> keys = List.of("shared-0", "shared-1", "shared-2");
    Map<String, MutualExclusionChecker> checkers = new ConcurrentHashMap<>();
    Map<String, Long> lastTokens = new ConcurrentHashMap<>();
    AtomicLong tokensOutOfOrder = new AtomicLong();
    List<BackgroundCall<Long>> workers = new ArrayList<>();
    for (int c = 0; c < 3; c++) {
      LockClient client = client(SHORT_TTL);
      for (int t = 0; t < 2; t++) {
        workers.add(BackgroundCall.start("client-" + c + "-" + t, () -> {
          long turns = 0;
          for (int i = 0; i < 300; i++) {
            String key = keys.get(ThreadLocalRandom.current().nextInt(keys.size()));
            try (Lease lease = client.lock(key).acquire(Duration.ofSeconds(10))) {
              checkers.computeIfAbsent(key, k -> new MutualExclusionChecker()).criticalSection();
              Long last = lastTokens.put(key, lease.fencingToken());
              if (last != null && last > lease.fencingToken()) {
                tokensOutOfOrder.incrementAndGet();
              }
              turns++;
            }
          }
          return turns;
        }));
      }
    }
    long turns = 0;
    for (BackgroundCall<Long> worker : workers) {
      turns += worker.result(Duration.ofSeconds(50));
    }

    assertThat(checkers.values()).allSatisfy(checker -> assertThat(checker.mostInsideAtOnce()).as("holders inside at once").isEqualTo(1));
    assertThat(checkers.values().stream().mapToLong(MutualExclusionChecker::count).sum()).as("increments not lost").isEqualTo(turns);
    assertThat(tokensOutOfOrder.get()).as("tokens smaller than the key's previous one").isZero();
  }

  /** Waits until a waiter has subscribed and asked the holder's release of {@code key} to wake it. */
  private static void awaitWaitingFlag(String key) {
    await("a waiter's wish to be woken, at the store").atMost(PROMPTLY).pollInterval(Duration.ofMillis(5))
        .until(() -> "1".equals(redis.command("HGET", "baton:lock:" + key, "waiting")));
  }

  /** Every key under {@code baton:}, by SCAN. */
  private static List<String> batonKeys() {
    List<String> found = new ArrayList<>();
    String cursor = "0";
    do {
      List<?> page = (List<?>) redis.command("SCAN", cursor, "MATCH", "baton:*", "COUNT", "1000");
      cursor = (String) page.get(0);
      ((List<?>) page.get(1)).forEach(key -> found.add((String) key));
    } while (!cursor.equals("0"));
    return found;
  }

  private static long serverMicros() {
    List<?> time = (List<?>) redis.command("TIME");
    return Long.parseLong((String) time.get(0)) * 1_000_000 + Long.parseLong((String) time.get(1));
  }
}
