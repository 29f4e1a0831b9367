package dev.baton.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.BackendSetupException;
import dev.baton.BackendUnavailableException;
import dev.baton.DistributedLock;
import dev.baton.Lease;
import dev.baton.LeaseState;
import dev.baton.LockClient;
import dev.baton.LockOptions;
import dev.baton.LockStatus;
import dev.baton.LockTimeoutException;
import dev.baton.LostReason;
import dev.baton.PermissionDeniedException;
import dev.baton.embedded.internal.Loopback;
import dev.baton.servers.TcpProxy;
import dev.baton.testkit.BackgroundCall;
import dev.baton.testkit.MutualExclusionChecker;
import dev.baton.testkit.RedisServerExtension;
import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/** What only Redis can do to a lock: restart, go away, forget its scripts; and the Redis client's own settings. */
@Timeout(30)
class RedisBackendTest {
  @RegisterExtension
  static final RedisServerExtension redis = new RedisServerExtension();

  private static final LockOptions SHORT_TTL = LockOptions.defaults().withTtl(Duration.ofMillis(500));

  private final List<LockClient> clients = new ArrayList<>();

  @AfterEach
  void closeClientsAndBringRedisBack() {
    clients.forEach(LockClient::close);
    if (!redis.server().isRunning()) {
      redis.server().start();
    }
  }

  private LockClient client(LockOptions defaults) {
    return connect(RedisLockClient.builder().uri(redis.uri()).defaultOptions(defaults));
  }

  private LockClient connect(RedisLockClient.Builder settings) {
    LockClient client = settings.connect();
    clients.add(client);
    return client;
  }

  @Test
  void aRestartWithoutPersistenceReportsTheLeaseLostAndTokensKeepGrowing() throws Exception {
    // A ttl well past the restart's length, so that the first renewal after it finds the entry gone rather
    // than the watchdog giving the lease up first for want of renewals (RENEWAL_FAILED) on a slow machine.
    Lease lease = client(LockOptions.defaults().withTtl(Duration.ofSeconds(3))).lock("restart").acquire();
    List<LostReason> reasons = new CopyOnWriteArrayList<>();
    lease.onLost(reasons::add);

    redis.server().restart();

    await().atMost(Duration.ofSeconds(10)).until(() -> !reasons.isEmpty());
    assertThat(reasons).containsExactly(LostReason.ENTRY_REMOVED);
    assertThat(lease.isHeld()).isFalse();
    assertThat(lease.state()).isEqualTo(LeaseState.LOST);
    try (Lease next = client(SHORT_TTL).lock("restart").acquire(Duration.ofSeconds(5))) {
      assertThat(next.fencingToken()).isGreaterThan(lease.fencingToken());
    }
  }

  @Test
  void anAcquireWhileRedisIsDownFailsWithinItsWaitTimeAndWorksOnceItIsBack() {
    DistributedLock lock = client(SHORT_TTL).lock("down");
    redis.server().stop();

    assertThatThrownBy(() -> lock.acquire(Duration.ofMillis(500)))
        .isInstanceOf(BackendUnavailableException.class)
        .hasMessageContaining("'down'")
        .hasMessageContaining("redis");
    assertThatThrownBy(lock::tryAcquire).isInstanceOf(BackendUnavailableException.class);

    redis.server().start();
    await().atMost(Duration.ofSeconds(10)).ignoreExceptions().untilAsserted(() -> {
      try (Lease lease = lock.acquire(Duration.ofSeconds(1))) {
        assertThat(lease.isHeld()).isTrue();
      }
    });
  }

  @Test
  void anAcquireWithoutWaitTimeGivesUpAfterOneTtlOfUnavailability() {
    DistributedLock lock = client(SHORT_TTL).lock("down-unbounded");
    redis.server().stop();

    assertThatThrownBy(lock::acquire).isInstanceOf(BackendUnavailableException.class).hasMessageContaining("'down-unbounded'");
  }

  @Test
  void aGrantWhoseReplyComesAfterItsTtlIsGivenBackAndTheLockTakenAgainAsANewOwner() throws Exception {
    try (TcpProxy proxy = TcpProxy.start(Loopback.HOST, redis.server().port())) {
      LockClient client = RedisLockClient.builder().uri("redis://" + proxy.address()).defaultOptions(SHORT_TTL).connect();
      clients.add(client);
      proxy.delayReplies();
      CompletableFuture<Lease> acquiring = client.lock("late").acquireAsync(SHORT_TTL.withWaitTime(Duration.ofSeconds(10)));
      await().until(() -> redis.command("HGET", "baton:lock:late", "owner") != null);
      String lateOwner = (String) redis.command("HGET", "baton:lock:late", "owner");
      long lateToken = Long.parseLong((String) redis.command("HGET", "baton:lock:late", "token"));
      await("the late grant expired at the store").until(() -> redis.command("EXISTS", "baton:lock:late").equals(0L));

      proxy.deliverReplies();
      Lease lease = acquiring.get(10, TimeUnit.SECONDS);

      assertThat(lease.ownerId()).isNotEqualTo(lateOwner);
      assertThat(lease.fencingToken()).isGreaterThan(lateToken);
      assertThat(lease.isHeld()).isTrue();
      assertThat(redis.command("HGET", "baton:lock:late", "owner")).isEqualTo(lease.ownerId());
      lease.close();
    }
  }

  @Test
  void aHolderCutOffForLongerThanItsTtlIsToldItLostTheLock() throws Exception {
    Lease lease = client(SHORT_TTL).lock("cut-off").acquire();
    List<LostReason> reasons = new CopyOnWriteArrayList<>();
    lease.onLost(reasons::add);

    redis.server().stop();

    await().atMost(Duration.ofSeconds(10)).until(() -> !reasons.isEmpty());
    assertThat(reasons).containsExactly(LostReason.RENEWAL_FAILED);
    assertThat(lease.isHeld()).isFalse();
  }

  @Test
  void scriptsAreLoadedAgainAfterScriptFlush() throws Exception {
    DistributedLock lock = client(LockOptions.defaults().withTtl(Duration.ofMillis(300))).lock("noscript");
    lock.acquire().close();
    redis.command("SCRIPT", "FLUSH");

    try (Lease lease = lock.acquire(Duration.ofSeconds(1))) {
      redis.command("SCRIPT", "FLUSH");
      // Renewals every 100 ms meet NOSCRIPT and must fall back to EVAL to keep the lease.
      await().during(Duration.ofMillis(1_000)).atMost(Duration.ofSeconds(3)).until(lease::isHeld);
      redis.command("SCRIPT", "FLUSH");
    }
    assertThat(redis.command("EXISTS", "baton:lock:noscript")).isEqualTo(0L);
  }

  @Test
  void aKeyHoldingOtherDataIsASetupProblemNamedAtOnceNotAnOutage() {
    redis.command("SET", "baton:lock:occupied", "an application's value");
    try {
      assertThatThrownBy(() -> client(SHORT_TTL).lock("occupied").acquire(Duration.ofSeconds(30)))
          .isInstanceOf(BackendSetupException.class)
          .hasMessageContaining("not a Baton lock")
          .hasMessageContaining("another namespace");
    } finally {
      redis.command("DEL", "baton:lock:occupied");
    }
  }

  @Test
  void aWaiterIsWokenByTheReleaseNotByTheExpiry() throws Exception {
    LockOptions longTtl = LockOptions.defaults().withTtl(Duration.ofSeconds(60));
    Lease held = client(longTtl).lock("wake").acquire();
    CompletableFuture<Lease> waiter = client(longTtl).lock("wake").acquireAsync();
    await().until(() -> "1".equals(redis.command("HGET", "baton:lock:wake", "waiting")));

    held.close();

    try (Lease next = waiter.get(10, TimeUnit.SECONDS)) {
      assertThat(next.fencingToken()).isGreaterThan(held.fencingToken());
    }
  }

  @Test
  void releasePublishesOnlyWhenSomeoneWaits() throws Exception {
    DistributedLock lock = client(SHORT_TTL).lock("quiet");
    redis.command("CONFIG", "RESETSTAT");
    for (int i = 0; i < 10; i++) {
      lock.acquire().close();
    }
    assertThat((String) redis.command("INFO", "commandstats")).doesNotContain("cmdstat_publish");

    Lease held = lock.acquire();
    CompletableFuture<Lease> waiter = client(SHORT_TTL).lock("quiet").acquireAsync();
    await().until(() -> "1".equals(redis.command("HGET", "baton:lock:quiet", "waiting")));
    held.close();
    waiter.get(10, TimeUnit.SECONDS).close();
    assertThat((String) redis.command("INFO", "commandstats")).contains("cmdstat_publish");
  }

  @Test
  void onlyTheHeadWaiterOfAProcessTalksToRedis() throws Exception {
    LockOptions longTtl = LockOptions.defaults().withTtl(Duration.ofSeconds(60));
    Lease held = client(longTtl).lock("queue").acquire();
    redis.command("CONFIG", "RESETSTAT");
    DistributedLock lock = client(longTtl).lock("queue");
    List<CompletableFuture<Lease>> waiters = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      waiters.add(lock.acquireAsync());
    }
    await().until(() -> scriptCalls() >= 2);

    // The head tried, subscribed and tried again; the seven behind it wait in the process, and stay silent.
    await("no script call but the head's").during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(5))
        .until(() -> scriptCalls() == 2);
    assertThat(commandCalls("subscribe")).isEqualTo(1);

    held.close();
    CompletableFuture.allOf(waiters.stream().map(w -> w.thenAccept(Lease::close)).toArray(CompletableFuture[]::new))
        .get(10, TimeUnit.SECONDS);
  }

  @Test
  @Timeout(60)
  void aChainOfLocalHandoversThatNoOtherClientWaitsForKeepsItsEntryAtTheStore() throws Exception {
    LockOptions longTtl = LockOptions.defaults().withTtl(Duration.ofSeconds(60));
    LockClient client = client(longTtl);
    Lease held = client.lock("chain").acquire();
    long firstToken = held.fencingToken();
    redis.command("CONFIG", "RESETSTAT");

    int handovers = 200;
    for (int i = 0; i < handovers; i++) {
      BackgroundCall<Lease> next = BackgroundCall.start("holder-" + i, () -> client.lock("chain").acquire());
      next.awaitBlocked();
      held.close();
      held = next.result(Duration.ofSeconds(5));
      assertThat(held.fencingToken()).as("the token after hand-over " + i).isEqualTo(firstToken);
    }

    // One script run per chain end, which kept the entry (no release, no acquire); chains are many hand-overs long.
    assertThat(scriptCalls()).as("script runs").isBetween(1L, (long) handovers / 8);
    held.close();
    assertThat(redis.command("EXISTS", "baton:lock:chain")).isEqualTo(0L);
  }

  @Test
  @Timeout(30)
  void anotherClientGetsTheLockFromAChainOfHandoversThatNeverPauses() throws Exception {
    LockClient busy = client(LockOptions.defaults());
    MutualExclusionChecker checker = new MutualExclusionChecker();
    AtomicBoolean stop = new AtomicBoolean();
    AtomicLong turns = new AtomicLong();
    List<BackgroundCall<Void>> loopers = new ArrayList<>();
    for (int t = 0; t < 3; t++) {
      loopers.add(BackgroundCall.start("busy-" + t, () -> {
        while (!stop.get()) {
          try (Lease lease = busy.lock("busy").acquire(Duration.ofSeconds(20))) {
            checker.criticalSection();
          }
          turns.incrementAndGet();
        }
        return null;
      }));
    }
    await().until(() -> turns.get() > 100);

    DistributedLock other = client(LockOptions.defaults()).lock("busy");
    for (int i = 0; i < 5; i++) {
      try (Lease lease = other.acquire(Duration.ofSeconds(10))) {
        checker.criticalSection();
      }
    }
    stop.set(true);
    for (BackgroundCall<Void> looper : loopers) {
      looper.result(Duration.ofSeconds(10));
    }

    assertThat(checker.mostInsideAtOnce()).as("holders inside at once").isEqualTo(1);
    assertThat(checker.count()).as("increments not lost").isEqualTo(turns.get() + 5);
  }

  @Test
  void aFairReleaseThatAnotherClientWaitedForKeepsTheLockFromTheReleasingClientUntilTheWaiterTakesIt() throws Exception {
    try (TcpProxy proxy = TcpProxy.start(Loopback.HOST, redis.server().port())) {
      LockClient releasing = connect(RedisLockClient.builder().uri(redis.uri()).yieldTime(Duration.ofSeconds(10)));
      LockClient waiting = connect(RedisLockClient.builder().uri("redis://" + proxy.address()));
      Lease held = releasing.lock("turn").acquire();
      BackgroundCall<Lease> waiter = BackgroundCall.start("waiter", () -> waiting.lock("turn").acquire(Duration.ofSeconds(10)));
      awaitWaitingFlag("turn");
      proxy.delayReplies(); // the waiter's wake-up is held up on its way

      held.close();

      assertThat(redis.command("HGET", "baton:yield:turn", "client")).isEqualTo(releasing.clientId());
      assertThat(releasing.lock("turn").tryAcquire()).as("the releasing client's tryAcquire while the waiter wakes").isEmpty();
      proxy.deliverReplies();
      try (Lease next = waiter.result(Duration.ofSeconds(5))) {
        assertThat(next.fencingToken()).isGreaterThan(held.fencingToken());
        assertThat(redis.command("EXISTS", "baton:yield:turn")).as("the yield once the waiter took the lock").isEqualTo(0L);
      }
    }
  }

  @Test
  void aReleaseYieldsNothingWhenNotFairOrWithoutYieldTime() throws Exception {
    LockOptions nonFair = LockOptions.defaults().toBuilder().fair(false).build();
    releaseWhileAnotherClientWaits(RedisLockClient.builder().uri(redis.uri()).defaultOptions(nonFair), "non-fair");
    releaseWhileAnotherClientWaits(RedisLockClient.builder().uri(redis.uri()).yieldTime(Duration.ZERO), "no-yield");

    assertThat(redis.command("EXISTS", "baton:yield:non-fair", "baton:yield:no-yield")).as("yields written").isEqualTo(0L);
  }

  private void releaseWhileAnotherClientWaits(RedisLockClient.Builder settings, String key) throws Exception {
    Lease held = connect(settings).lock(key).acquire();
    BackgroundCall<Lease> waiter = BackgroundCall.start("waiter", () -> connect(settings).lock(key).acquire(Duration.ofSeconds(10)));
    awaitWaitingFlag(key);
    held.close();
    waiter.result(Duration.ofSeconds(5)).close();
  }

  @Test
  void aTurnYieldedToAWaiterThatGaveUpComesBackToTheReleasingClient() throws Exception {
    LockClient releasing = client(LockOptions.defaults());
    Lease held = releasing.lock("gave-up").acquire();
    BackgroundCall<Lease> waiter = BackgroundCall.start("impatient", () -> client(LockOptions.defaults()).lock("gave-up")
        .acquire(Duration.ofMillis(300)));
    awaitWaitingFlag("gave-up");
    assertThat(waiter.failure(Duration.ofSeconds(5))).isInstanceOf(LockTimeoutException.class);

    held.close();

    try (Lease again = releasing.lock("gave-up").acquire(Duration.ofSeconds(5))) {
      assertThat(again.fencingToken()).isGreaterThan(held.fencingToken());
    }
  }

  @Test
  void twoClientsOnAHotKeyTakeTurnsInFairShares() throws Exception {
    MutualExclusionChecker checker = new MutualExclusionChecker();
    int turns = 3_000;
    AtomicLong left = new AtomicLong(turns);
    List<AtomicLong> shares = List.of(new AtomicLong(), new AtomicLong());
    List<BackgroundCall<Void>> loopers = new ArrayList<>();
    for (int c = 0; c < 2; c++) {
      LockClient client = client(LockOptions.defaults());
      AtomicLong share = shares.get(c);
      for (int t = 0; t < 2; t++) {
        loopers.add(BackgroundCall.start("client-" + c + "-" + t, () -> {
          while (left.get() > 0) {
            try (Lease lease = client.lock("shared").acquire(Duration.ofSeconds(10))) {
              checker.criticalSection();
              share.incrementAndGet();
              left.decrementAndGet();
            }
          }
          return null;
        }));
      }
    }
    for (BackgroundCall<Void> looper : loopers) {
      looper.result(Duration.ofSeconds(25));
    }

    long total = shares.get(0).get() + shares.get(1).get();
    assertThat(checker.mostInsideAtOnce()).as("holders inside at once").isEqualTo(1);
    assertThat(checker.count()).as("increments not lost").isEqualTo(total);
    assertThat(shares).as("each client's turns of " + total).allSatisfy(share -> assertThat(share.get() * 3).isGreaterThanOrEqualTo(total));
  }

  /** Waits until a waiter has asked the holder's release of {@code key} to wake it. */
  private static void awaitWaitingFlag(String key) {
    await("a waiter's wish to be woken, at the store")
        .until(() -> "1".equals(redis.command("HGET", "baton:lock:" + key, "waiting")));
  }

  /** Script runs, whether by EVALSHA or, after a NOSCRIPT, by EVAL. */
  private static long scriptCalls() {
    return commandCalls("evalsha") + commandCalls("eval");
  }

  private static long commandCalls(String command) {
    String stats = (String) redis.command("INFO", "commandstats");
    return stats.lines()
        .filter(line -> line.startsWith("cmdstat_" + command + ":"))
        .map(line -> line.replaceAll("^[^:]*:calls=(\\d+),.*", "$1"))
        .mapToLong(Long::parseLong)
        .findFirst()
        .orElse(0L);
  }

  /**
   * A multi-lock takes the keys that no other thread of its client has or waits for in one script (LockBackend
   * .acquireInOrder), in its key order, and stops at the first key held elsewhere: the keys before it are held, and it
   * waits for that key as any acquire does, the keys after it untouched until then.
   */
  @Test
  void aMultiLockTakesItsFreeKeysInOneScriptAndWaitsForTheFirstHeldElsewhere() throws Exception {
    LockClient client = client(LockOptions.defaults());
    LockClient other = client(LockOptions.defaults());
    List<String> keys = List.of("in-order/a", "in-order/b", "in-order/c");
    client.multiLock(keys).acquire().close(); // the scripts are loaded: each call below is one EVALSHA
    redis.command("CONFIG", "RESETSTAT");
    try (Lease lease = client.multiLock(keys).acquire()) {
      assertThat(scriptCalls()).as("scripts run to take three free keys").isEqualTo(1);
      assertThat(lease.isHeld()).isTrue();
      for (String key : keys) {
        assertThat(other.status(key).fencingToken()).as("token of %s", key).hasValue(lease.fencingToken(key));
      }
    }
    Lease b = other.lock("in-order/b").acquire();
    BackgroundCall<Lease> waiting = BackgroundCall.start("multi", () -> client.multiLock(keys)
        .acquire(Duration.ofSeconds(10)));
    await("key a taken while b is waited for").until(() -> other.status("in-order/a").isHeld());
    waiting.awaitBlocked();
    assertThat(other.status("in-order/c").isHeld()).as("key c, after the key waited for").isFalse();
    b.close();
    try (Lease lease = waiting.result(Duration.ofSeconds(10))) {
      assertThat(lease.isHeld()).isTrue();
      assertThat(lease.fencingToken("in-order/b")).isGreaterThan(b.fencingToken());
    }
    for (String key : keys) {
      assertThat(other.status(key).isHeld()).as("%s after the release", key).isFalse();
    }
  }

  @Test
  void statusCountsTheWaitingClients() throws Exception {
    LockClient observer = client(SHORT_TTL);
    Lease held = client(SHORT_TTL).lock("status").acquire();
    CompletableFuture<Lease> waiter = client(SHORT_TTL).lock("status").acquireAsync();
    await().until(() -> observer.status("status").waiters() == 1);
    assertThat(observer.status("status").remainingTtl()).hasValueSatisfying(ttl -> assertThat(ttl).isPositive());
    held.close();
    waiter.get(10, TimeUnit.SECONDS).close();
  }

  @Test
  void keysLiveUnderTheConfiguredNamespace() throws Exception {
    LockClient client = RedisLockClient.builder().uri(redis.uri()).namespace("app1").connect(); // the colon is added
    clients.add(client);
    try (Lease lease = client.lock("orders/42").acquire()) {
      assertThat(redis.command("HGET", "app1:lock:orders/42", "owner")).isEqualTo(lease.ownerId());
      assertThat(redis.command("GET", "app1:fence:orders/42")).isEqualTo(Long.toString(lease.fencingToken()));
    }
    assertThat(redis.command("EXISTS", "app1:lock:orders/42")).isEqualTo(0L);
  }

  /**
   * A client lists the locks under its own namespace only, even one with glob characters that would match the
   * other's, and a hash under its namespace that is not a lock (another tool's) is not listed.
   */
  @Test
  void listStaysUnderTheClientsNamespaceTakenLiterally() throws Exception {
    LockClient globbed = RedisLockClient.builder().uri(redis.uri()).namespace("app*").connect();
    clients.add(globbed);
    LockClient plain = RedisLockClient.builder().uri(redis.uri()).namespace("appX").connect();
    clients.add(plain);
    try (Lease ours = globbed.lock("listed/a").acquire(); Lease theirs = plain.lock("listed/b").acquire()) {
      redis.command("SET", "app*:lock:listed/not-a-hash", "x");
      assertThat(globbed.list("listed/", 10)).extracting(LockStatus::key).containsExactly("listed/a");
      assertThat(plain.list("listed/", 10)).extracting(LockStatus::key).containsExactly("listed/b");
    } finally {
      redis.command("DEL", "app*:lock:listed/not-a-hash");
    }
  }

  @Test
  void theUriCarriesPasswordAndDatabase() throws Exception {
    try {
      redis.command("CONFIG", "SET", "requirepass", "s3cret");
      String base = "redis://:s3cret@127.0.0.1:" + redis.server().port();
      LockClient db3 = RedisLockClient.connect(base + "/3");
      clients.add(db3);
      LockClient db0 = RedisLockClient.connect(base + "/0");
      clients.add(db0);
      // Two databases, two namespaces: the same key is free in each.
      try (Lease a = db3.lock("db").acquire(Duration.ZERO); Lease b = db0.lock("db").acquire(Duration.ZERO)) {
        assertThat(a.isHeld()).isTrue();
        assertThat(b.isHeld()).isTrue();
      }
      assertThatThrownBy(() -> RedisLockClient.connect("redis://:wrong@127.0.0.1:" + redis.server().port()))
          .isInstanceOf(PermissionDeniedException.class)
          .hasMessageContaining("127.0.0.1:" + redis.server().port())
          .hasMessageNotContaining("wrong@");
    } finally {
      clients.forEach(LockClient::close);
      clients.clear();
      redis.server().restart(); // forgets the password
    }
  }

  @Test
  void anUnreachableServerFailsTheConnectAndLeavesNoThreads() throws IOException {
    int closedPort;
    try (ServerSocket socket = new ServerSocket(0)) {
      closedPort = socket.getLocalPort();
    }
    assertThatThrownBy(() -> RedisLockClient.connect("redis://127.0.0.1:" + closedPort))
        .isInstanceOf(BackendUnavailableException.class)
        .hasMessageContaining("127.0.0.1:" + closedPort)
        .hasMessageContaining("redis-server");
    await().atMost(Duration.ofSeconds(10)).until(() -> Thread.getAllStackTraces().keySet().stream()
        .noneMatch(t -> t.getName().startsWith("lettuce-")));
  }

  @Test
  void badSettingsAreRejectedWithTheValueAndTheFix() {
    assertThatThrownBy(() -> RedisLockClient.connect("http://127.0.0.1:6379"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("http://127.0.0.1:6379").hasMessageContaining("redis://");
    assertThatThrownBy(() -> RedisLockClient.connect(" ")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> RedisLockClient.builder().connect()).isInstanceOf(IllegalStateException.class).hasMessageContaining("URI");
    assertThatThrownBy(() -> RedisLockClient.builder().namespace(null)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> RedisLockClient.builder().namespace("p".repeat(1 << 20)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("namespace").hasMessageContaining("128");
    assertThatThrownBy(() -> RedisLockClient.builder().commandTimeout(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("commandTimeout");
    for (Duration bad : Arrays.asList(null, Duration.ofMillis(-1), Duration.ofNanos(1), Duration.ofMinutes(2))) {
      assertThatThrownBy(() -> RedisLockClient.builder().yieldTime(bad))
          .isInstanceOf(IllegalArgumentException.class).hasMessageContainingAll("yieldTime", String.valueOf(bad));
    }
  }
}
