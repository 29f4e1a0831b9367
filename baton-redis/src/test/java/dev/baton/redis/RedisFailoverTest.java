package dev.baton.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.Lease;
import dev.baton.LockClient;
import dev.baton.LockOptions;
import dev.baton.LostReason;
import dev.baton.servers.RedisReplicatedPair;
import dev.baton.testkit.RecordingLostListener;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What a Redis failover does to a lock, shown without luck: the replica has not received the lock when it
 * is promoted. Two clients then hold the lock at once (Redis with asynchronous replication does not promise
 * mutual exclusion across a failover), but the second one's fencing token is larger, though the token
 * counter itself went back with the replica: tokens are floored at the server's clock.
 */
@Timeout(30)
class RedisFailoverTest {
  private final RedisReplicatedPair redis = new RedisReplicatedPair();
  private LockClient first;
  private LockClient second;

  @BeforeEach
  void start() {
    redis.start();
    first = RedisLockClient.connect(redis.uri());
    second = RedisLockClient.connect(redis.uri());
  }

  @AfterEach
  void stop() {
    first.close();
    second.close();
    redis.close();
  }

  @Test
  void aFailoverToAReplicaThatMissedTheLockLetsASecondHolderInWithALargerToken() throws Exception {
    try (Lease warmUp = first.lock("failover").acquire()) {
      assertThat(warmUp.fencingToken()).isPositive(); // the fence counter exists on both servers now
    }
    await().until(() -> redis.primary().command("GET", "baton:fence:failover") != null);
    redis.cutReplication();
    Lease held = first.lock("failover").acquire(LockOptions.defaults().withTtl(Duration.ofSeconds(3)));
    RecordingLostListener lost = new RecordingLostListener();
    held.onLost(lost);

    redis.failover();
    Lease overlapping = second.lock("failover").acquire(Duration.ofSeconds(10));

    assertThat(overlapping.fencingToken()).as("the new holder's token").isGreaterThan(held.fencingToken());
    await("the first holder learns it at its next renewal").atMost(Duration.ofSeconds(10))
        .until(() -> lost.reasons().contains(LostReason.ENTRY_REMOVED));
    assertThat(held.isHeld()).isFalse();
    overlapping.close();
  }
}
