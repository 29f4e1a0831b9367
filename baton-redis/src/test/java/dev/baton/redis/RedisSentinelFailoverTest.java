package dev.baton.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.BackendUnavailableException;
import dev.baton.Lease;
import dev.baton.LeaseState;
import dev.baton.LockClient;
import dev.baton.LockOptions;
import dev.baton.LostReason;
import dev.baton.servers.RedisServer;
import dev.baton.testkit.RecordingLostListener;
import dev.baton.testkit.RedisSentinelExtension;
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
 * What a Sentinel failover does to locks whose clients found the master through the sentinels: afterwards they lock
 * on the new master, waiters are woken by releases there, a holding the replica had survives, a holding it had not
 * is lost at its next renewal, and fencing tokens are larger than every token before.
 */
@Timeout(120)
class RedisSentinelFailoverTest {
  @RegisterExtension
  static final RedisSentinelExtension redis = new RedisSentinelExtension();

  /** Holders whose renewals outlast a failover (the sentinels wait 1 s before they judge the master down). */
  private static final LockOptions OPTIONS = LockOptions.defaults().withTtl(Duration.ofSeconds(20))
      .withWaitTime(Duration.ofSeconds(60));
  /** Much shorter than the 20 s a waiter that missed its wake-up waits before it asks again. */
  private static final Duration WOKEN_WITHIN = Duration.ofSeconds(3);

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
  void aKilledMasterIsReplacedWithoutALostUpdateAndTokensGoOnGrowing() throws Exception {
    FencedCounter counter = new FencedCounter();
    CounterWorkers workers = CounterWorkers.start("killed-master", counter, List.of(connect(), connect(), connect()));
    await().atMost(Duration.ofSeconds(30)).until(() -> counter.accepted() >= 20);

    // A holder across the failover, whose holding the replica has: the others wait for it meanwhile.
    Lease across = connect().lock("killed-master").acquire();
    RecordingLostListener acrossLost = new RecordingLostListener();
    across.onLost(acrossLost);
    long read = counter.read(across.fencingToken()).orElseThrow();
    awaitReplicatedWaiter("killed-master");
    long largestBefore = workers.largestToken();

    redis.sentinels().failover();
    workers.failedOver();
    assertThat(across.isHeld()).as("a holding the promoted replica has is still held").isTrue();
    assertThat(counter.increment(across.fencingToken(), read)).as("the holder's write after the failover").isTrue();
    RedisServer newMaster = redis.sentinels().master();
    await("the waiters' subscriptions on the new master").atMost(Duration.ofSeconds(10))
        .until(() -> subscribers(newMaster, "killed-master") > 0);
    across.close();

    assertThat(across.state()).isEqualTo(LeaseState.RELEASED);
    assertThat(acrossLost.reasons()).isEmpty();
    await("a waiter woken by the release on the new master").atMost(WOKEN_WITHIN)
        .until(workers::grantedAfterFailover);
    long acceptedAtRelease = counter.accepted();
    await().atMost(Duration.ofSeconds(30)).until(() -> counter.accepted() >= acceptedAtRelease + 20);
    workers.stop();

    assertThat(counter.lostUpdates()).as("lost updates").isZero();
    assertThat(counter.value()).isEqualTo(counter.accepted());
    assertThat(workers.unwrittenHoldsThatStayedHeld()).as("holds never lost whose write was refused").isEmpty();
    assertThat(workers.smallestTokenAfterFailover()).as("the smallest token after the failover")
        .isGreaterThan(Math.max(largestBefore, across.fencingToken()));
  }

  @Test
  void aSwitchOverMovesEveryConnectionOnceSentinelDemotesTheOldMaster() throws Exception {
    LockClient early = connect();
    LockClient earlyWaiter = connect();
    Lease held = early.lock("switch-over/held").acquire();
    CompletableFuture<Lease> waiting = earlyWaiter.lock("switch-over/held").acquireAsync();
    RedisServer oldMaster = redis.sentinels().master();
    awaitReplicatedWaiter("switch-over/held");

    redis.sentinels().switchOver();
    RedisServer newMaster = redis.sentinels().master();
    // Until Sentinel demotes the old master, the early clients go on locking there, and new clients on the new one.
    Lease stranded = early.lock("switch-over/window", OPTIONS.withTtl(Duration.ofSeconds(3))).acquire();
    RecordingLostListener strandedLost = new RecordingLostListener();
    stranded.onLost(strandedLost);
    assertThat(oldMaster.command("EXISTS", "baton:lock:switch-over/window")).isEqualTo(1L);
    Lease overlapping = connect().lock("switch-over/window").acquire(Duration.ZERO);
    assertThat(newMaster.command("EXISTS", "baton:lock:switch-over/window")).isEqualTo(1L);
    assertThat(overlapping.fencingToken()).as("the new master's token").isGreaterThan(stranded.fencingToken());

    redis.sentinels().awaitSettled();
    assertThat(redis.sentinels().replica()).isSameAs(oldMaster);
    assertThat((List<?>) oldMaster.command("ROLE")).first().isEqualTo("slave");
    await("the waiter's subscription on the new master").atMost(Duration.ofSeconds(10))
        .until(() -> subscribers(newMaster, "switch-over/held") == 1L);
    held.close();
    Lease woken = waiting.get(WOKEN_WITHIN.toMillis(), TimeUnit.MILLISECONDS);
    assertThat(woken.fencingToken()).isGreaterThan(held.fencingToken());
    await("the stranded holder learns it at its next renewal").atMost(Duration.ofSeconds(10))
        .until(() -> strandedLost.reasons().contains(LostReason.ENTRY_REMOVED));
    assertThat(stranded.isHeld()).isFalse();
    assertThat(overlapping.isHeld()).isTrue();
    woken.close();
    overlapping.close();
  }

  /**
   * The switch-over's window with replica acknowledgement: from the switch on, the old master has no replica, so a
   * client still connected to it gets no grant that counts there, while new clients lock on the new master; once
   * Sentinel has demoted the old master, the early client locks on the new one.
   */
  @Test
  void withReplicaAcknowledgementTheOldMasterGrantsNothingThatCountsAfterASwitchOver() throws Exception {
    LockClient early = RedisLockClient.builder().uri(redis.uri()).defaultOptions(OPTIONS)
        .minReplicas(1, Duration.ofMillis(200)).connect();
    clients.add(early);
    try (Lease before = early.lock("acked-switch-over").acquire(Duration.ZERO)) {
      assertThat(before.fencingToken()).isPositive();
    }
    RedisServer oldMaster = redis.sentinels().master();

    redis.sentinels().switchOver();
    RedisServer newMaster = redis.sentinels().master();
    assertThatThrownBy(() -> early.lock("acked-switch-over").tryAcquire())
        .isInstanceOf(BackendUnavailableException.class).hasMessageContaining("0 of the 1 replicas");
    assertThat(oldMaster.command("EXISTS", "baton:lock:acked-switch-over")).as("nothing left at the old master")
        .isEqualTo(0L);
    Lease onNewMaster = connect().lock("acked-switch-over").acquire(Duration.ZERO);
    assertThat(newMaster.command("EXISTS", "baton:lock:acked-switch-over")).isEqualTo(1L);
    onNewMaster.close();

    redis.sentinels().awaitSettled();
    try (Lease after = early.lock("acked-switch-over").acquire(Duration.ofSeconds(10))) {
      assertThat(newMaster.command("EXISTS", "baton:lock:acked-switch-over")).isEqualTo(1L);
      assertThat(after.fencingToken()).isGreaterThan(onNewMaster.fencingToken());
    }
  }

  /**
   * Waits until a waiter asked the master to wake it when {@code key} is released, and the replica has that request
   * (and the holding) too: a release on the replica once it is promoted will wake the waiter.
   */
  private static void awaitReplicatedWaiter(String key) {
    RedisServer master = redis.sentinels().master();
    await("a waiter's request to be woken").atMost(Duration.ofSeconds(10))
        .until(() -> "1".equals(master.command("HGET", "baton:lock:" + key, "waiting")));
    assertThat(master.command("WAIT", "1", "5000")).as("replicas that have the waiter's request").isEqualTo(1L);
  }

  /** How many connections of the server subscribe to the wake-ups of {@code key}. */
  private static long subscribers(RedisServer server, String key) {
    List<?> reply = (List<?>) server.command("PUBSUB", "NUMSUB", "baton:wake:" + key);
    return (Long) reply.get(1);
  }
}
