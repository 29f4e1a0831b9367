package dev.baton.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.Lease;
import dev.baton.LeaseState;
import dev.baton.LockClient;
import dev.baton.LockOptions;
import dev.baton.LostReason;
import dev.baton.servers.RedisServer;
import dev.baton.testkit.RecordingLostListener;
import dev.baton.testkit.RedisClusterExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What a cluster failover does to locks on the master that dies: once its replica takes over, the clients lock there
 * (they read the slots again), a holding the replica had survives, a holding it had not is lost at the holder's next
 * renewal, waiters subscribe again at the new master and are woken by its releases, and fencing tokens are larger than
 * every token before.
 */
@Timeout(120)
class RedisClusterFailoverTest {
  @RegisterExtension
  static final RedisClusterExtension redis = new RedisClusterExtension();

  private static final RedisKeys KEYS = RedisKeys.tagged(RedisLockClient.DEFAULT_NAMESPACE);
  /** Holders whose renewals outlast a failover (the nodes wait 1 s before they judge a master down). */
  private static final Duration TTL = Duration.ofSeconds(20);
  private static final LockOptions OPTIONS = LockOptions.defaults().withTtl(TTL)
      .withWaitTime(Duration.ofSeconds(60));
  /** Much shorter than the 20 s a waiter that missed its wake-up waits before it asks again. */
  private static final Duration WOKEN_WITHIN = Duration.ofSeconds(3);

  /**
   * Deletes KEYS[1] at the replicas only, then writes it back at the master only (redis.set_repl), with its fields
   * and expiry: the master holds the entry, its replicas do not.
   */
  private static final String UNREPLICATE = """
      local fields = redis.call('HGETALL', KEYS[1])
      local ttl = redis.call('PTTL', KEYS[1])
      redis.set_repl(redis.REPL_REPLICA)
      redis.call('DEL', KEYS[1])
      redis.set_repl(redis.REPL_NONE)
      redis.call('HSET', KEYS[1], unpack(fields))
      redis.call('PEXPIRE', KEYS[1], ttl)
      """;

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
    // In slot 0, whose master failover() kills.
    String key = SlotKeys.keyInSlot("failover/", 0);
    FencedCounter counter = new FencedCounter();
    CounterWorkers workers = CounterWorkers.start(key, counter, List.of(connect(), connect(), connect()));
    await().atMost(Duration.ofSeconds(30)).until(() -> counter.accepted() >= 20);

    // A holder across the failover, whose holding the replica has: the others wait for it meanwhile.
    Lease across = connect().lock(key).acquire();
    RecordingLostListener acrossLost = new RecordingLostListener();
    across.onLost(acrossLost);
    long read = counter.read(across.fencingToken()).orElseThrow();
    RedisServer oldMaster = redis.cluster().masterOf(KEYS.lock(key));
    await("a waiter's request to be woken").atMost(Duration.ofSeconds(10))
        .until(() -> "1".equals(oldMaster.command("HGET", KEYS.lock(key), "waiting")));
    assertThat(oldMaster.command("WAIT", "1", "5000")).as("replicas that have the waiter's request").isEqualTo(1L);
    long largestBefore = workers.largestToken();

    redis.cluster().failover();
    workers.failedOver();
    RedisServer newMaster = redis.cluster().masterOf(KEYS.lock(key));
    assertThat(newMaster).isNotSameAs(oldMaster);
    assertThat(across.isHeld()).as("a holding the promoted replica has is still held").isTrue();
    assertThat(counter.increment(across.fencingToken(), read)).as("the holder's write after the failover").isTrue();
    await("the waiters' sharded subscriptions at the new master").atMost(Duration.ofSeconds(20))
        .until(() -> shardSubscribers(newMaster, KEYS.channel(key)) > 0);
    across.close();

    assertThat(across.state()).isEqualTo(LeaseState.RELEASED);
    assertThat(acrossLost.reasons()).isEmpty();
    await("a waiter woken by the release at the new master").atMost(WOKEN_WITHIN)
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
  void aHoldingThePromotedReplicaLacksIsLostAtTheNextRenewalAndTheNextTokenIsLarger() throws Exception {
    // In slot 0, whose master failover() kills.
    String key = SlotKeys.keyInSlot("unreplicated/", 0);
    Lease stranded = connect().lock(key).acquire(Duration.ZERO);
    RecordingLostListener strandedLost = new RecordingLostListener();
    stranded.onLost(strandedLost);
    RedisServer oldMaster = redis.cluster().masterOf(KEYS.lock(key));
    RedisServer replica = redis.cluster().replicaOf(oldMaster);
    // As if the master died before it passed the acquire on: the replica loses the entry, the master keeps it.
    oldMaster.command("EVAL", UNREPLICATE, "1", KEYS.lock(key));
    assertThat(oldMaster.command("WAIT", "1", "5000")).as("replicas that have the deletion").isEqualTo(1L);
    assertThat((List<?>) replica.command("KEYS", KEYS.lock(key))).as("the entry at the replica").isEmpty();
    assertThat(oldMaster.command("EXISTS", KEYS.lock(key))).as("the entry at the master").isEqualTo(1L);

    redis.cluster().failover();
    assertThat(redis.cluster().masterOf(KEYS.lock(key))).isSameAs(replica);
    // Its next renewal comes within a third of the ttl, and the failover ended the renewals' failures.
    await("the stranded holder learns it at its next renewal").atMost(TTL)
        .until(() -> strandedLost.reasons().contains(LostReason.ENTRY_REMOVED));
    assertThat(stranded.isHeld()).isFalse();
    assertThat(stranded.state()).isEqualTo(LeaseState.LOST);

    Lease next = connect().lock(key).acquire(Duration.ZERO);
    assertThat(next.fencingToken()).as("the next holder's token").isGreaterThan(stranded.fencingToken());
    next.close();
    assertThat(strandedLost.reasons()).containsExactly(LostReason.ENTRY_REMOVED);
  }

  private static long shardSubscribers(RedisServer server, String channel) {
    List<?> reply = (List<?>) server.command("PUBSUB", "SHARDNUMSUB", channel);
    return (Long) reply.get(1);
  }
}
