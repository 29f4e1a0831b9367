package dev.baton.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.BackendUnavailableException;
import dev.baton.Lease;
import dev.baton.LeaseState;
import dev.baton.LockClient;
import dev.baton.LockOptions;
import dev.baton.servers.RedisServer;
import dev.baton.testkit.RecordingLostListener;
import dev.baton.testkit.RedisClusterExtension;
import io.lettuce.core.cluster.SlotHash;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What a resharding does to the locks of the slot it moves: while the slot's keys go to another master one by one, a
 * lock's script finds some of its keys there and some still here (the source answers ASK for a key it no longer has,
 * and TRYAGAIN for a script of several keys that it has only some of), and once the slot has moved its old master
 * answers MOVED. Holders keep renewing throughout, contenders wait and are granted, and tokens keep growing. An
 * acquire that gives up while the slot moves says so, as a move that stopped half way would leave it.
 */
@Timeout(180)
class RedisClusterReshardingTest {
  @RegisterExtension
  static final RedisClusterExtension redis = new RedisClusterExtension();

  private static final RedisKeys KEYS = RedisKeys.tagged(RedisLockClient.DEFAULT_NAMESPACE);
  /** A short ttl, so that holders renew several times while each key moves. */
  private static final Duration TTL = Duration.ofSeconds(1);
  /** Far longer than the whole migration, which the acquires may have to wait out. */
  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final LockOptions OPTIONS = LockOptions.defaults().withTtl(TTL).withWaitTime(WAIT);

  private final List<LockClient> clients = new ArrayList<>();

  @AfterEach
  void closeClients() {
    clients.forEach(LockClient::close);
  }

  private LockClient connect() {
    LockClient client = RedisLockClient.builder().uri(redis.uri()).defaultOptions(OPTIONS).connect();
    clients.add(client);
    return client;
  }

  @Test
  void aSlotMovedKeyByKeyUnderContentionKeepsItsHolderAndEveryUpdate() throws Exception {
    String heldKey = "reshard/held";
    int slot = SlotHash.getSlot(KEYS.lock(heldKey));
    String contendedKey = SlotKeys.keyInSlot("reshard/contended/", slot);
    String lateKey = SlotKeys.keyInSlot("reshard/late/", slot);
    FencedCounter counter = new FencedCounter();
    CounterWorkers workers = CounterWorkers.start(contendedKey, counter, List.of(connect(), connect(), connect()));
    await().atMost(Duration.ofSeconds(30)).until(() -> counter.accepted() >= 20);

    Lease held = connect().lock(heldKey).acquire(Duration.ZERO);
    RecordingLostListener heldLost = new RecordingLostListener();
    held.onLost(heldLost);
    RedisServer source = redis.cluster().masterOf(KEYS.lock(heldKey));
    RedisServer target = anotherMasterThan(source);
    long largestBefore = Math.max(workers.largestToken(), held.fencingToken());
    source.command("CONFIG", "RESETSTAT");
    target.command("CONFIG", "RESETSTAT");

    redis.cluster().beginMigration(slot, target);
    CompletableFuture<Lease> late = null;
    boolean sawKeysOnBothSides = false;
    while (redis.cluster().moveKeys(slot, 1) > 0) {
      sawKeysOnBothSides |= keysInSlot(source, slot) > 0 && keysInSlot(target, slot) > 0;
      if (late == null) {
        // A lock that the slot's move finds free: its first try meets the move half done.
        late = connect().lock(lateKey).acquireAsync();
      }
      // Renewals, acquires and releases run on the keys moved so far and those not yet moved.
      awaitServerTime(source, 2 * TTL.toMillis());
    }
    long redirected = errorReplies(source, "ASK");
    long refused = errorReplies(source, "TRYAGAIN") + errorReplies(target, "TRYAGAIN");
    redis.cluster().endMigration(slot);
    // The holds granted from now on count as after the move.
    workers.failedOver();

    assertThat(sawKeysOnBothSides).as("the slot's keys were ever split between its source and its target").isTrue();
    assertThat(redirected).as("ASK redirections to the target during the move").isPositive();
    assertThat(refused).as("TRYAGAIN replies to scripts whose keys were split during the move").isPositive();
    assertThat(late).as("a lock was tried during the move").isNotNull();
    Lease lateLease = late.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
    assertThat(lateLease.fencingToken()).isPositive();
    lateLease.close();
    long acceptedAtEnd = counter.accepted();
    await("contenders granted after the move").atMost(Duration.ofSeconds(30))
        .until(() -> counter.accepted() >= acceptedAtEnd + 20);
    // The holder goes on renewing at the slot's new master for a few more ttls.
    awaitServerTime(target, 3 * TTL.toMillis());
    assertThat(held.isHeld()).as("the lock held across the move").isTrue();
    assertThat(heldLost.reasons()).as("why the holder lost its lock").isEmpty();
    assertThat(redis.cluster().masterOf(KEYS.lock(heldKey))).isSameAs(target);
    assertThat(target.command("EXISTS", KEYS.lock(heldKey))).as("the held lock's entry at the target").isEqualTo(1L);
    assertThat(keysInSlot(source, slot)).as("keys of the slot left at its old master").isZero();
    held.close();
    workers.stop();

    assertThat(held.state()).isEqualTo(LeaseState.RELEASED);
    assertThat(heldLost.reasons()).isEmpty();
    assertThat(counter.lostUpdates()).as("lost updates").isZero();
    assertThat(counter.value()).isEqualTo(counter.accepted());
    assertThat(workers.unwrittenHoldsThatStayedHeld()).as("holds never lost whose write was refused").isEmpty();
    assertThat(workers.smallestTokenAfterFailover()).as("the smallest token after the move")
        .isGreaterThan(largestBefore);
  }

  @Test
  void anAcquireThatGivesUpWhileItsSlotMovesSaysSo() throws Exception {
    String key = "reshard/stopped";
    int slot = SlotHash.getSlot(KEYS.lock(key));
    LockClient client = connect();
    RedisServer target = anotherMasterThan(redis.cluster().masterOf(KEYS.lock(key)));

    redis.cluster().beginMigration(slot, target);
    try {
      assertThatThrownBy(() -> client.lock(key).acquire(Duration.ofMillis(500)))
          .isInstanceOf(BackendUnavailableException.class)
          .hasMessageContaining("TRYAGAIN")
          .hasMessageContaining("redis-cli --cluster check");
    } finally {
      redis.cluster().endMigration(slot);
    }

    try (Lease lease = client.lock(key).acquire(Duration.ZERO)) {
      assertThat(redis.cluster().masterOf(KEYS.lock(key))).isSameAs(target);
      assertThat(target.command("EXISTS", KEYS.lock(key))).as("the entry at the slot's new master").isEqualTo(1L);
    }
  }

  /** A master of the cluster other than {@code master}, to move {@code master}'s slot to. */
  private static RedisServer anotherMasterThan(RedisServer master) {
    return redis.cluster().masters().stream().filter(other -> other != master).findFirst().orElseThrow();
  }

  private static long keysInSlot(RedisServer master, int slot) {
    return (Long) master.command("CLUSTER", "COUNTKEYSINSLOT", Integer.toString(slot));
  }

  /** How many error replies starting with {@code prefix} {@code server} gave since its last CONFIG RESETSTAT. */
  private static long errorReplies(RedisServer server, String prefix) {
    String stats = (String) server.command("INFO", "errorstats");
    return stats.lines().filter(line -> line.startsWith("errorstat_" + prefix + ":count="))
        .mapToLong(line -> Long.parseLong(line.substring(line.indexOf('=') + 1).split(",")[0])).sum();
  }

  /** Waits until {@code millis} have passed on {@code server}'s clock, the clock the keys' expiries run on. */
  private static void awaitServerTime(RedisServer server, long millis) {
    long start = serverMillis(server);
    await("the server's clock to pass " + millis + " ms").atMost(Duration.ofSeconds(30))
        .until(() -> serverMillis(server) >= start + millis);
  }

  private static long serverMillis(RedisServer server) {
    List<?> time = (List<?>) server.command("TIME");
    return Long.parseLong((String) time.get(0)) * 1000 + Long.parseLong((String) time.get(1)) / 1000;
  }
}
