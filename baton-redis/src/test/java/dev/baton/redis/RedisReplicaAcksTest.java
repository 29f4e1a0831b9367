package dev.baton.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.BackendUnavailableException;
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
 * Replica acknowledgement ({@code minReplicas}) on a primary with one asynchronous replica: a grant counts only once
 * the replica has it, so the failover of {@link RedisFailoverTest}, which let a second holder in, keeps the holding;
 * a grant or a renewal the replica does not acknowledge does not count, and leaves nothing behind.
 */
@Timeout(60)
class RedisReplicaAcksTest {
  private static final Duration WITHIN = Duration.ofMillis(300);

  private final RedisReplicatedPair redis = new RedisReplicatedPair();
  private LockClient acknowledged;
  private LockClient other;

  @BeforeEach
  void start() {
    redis.start();
    acknowledged = RedisLockClient.builder().uri(redis.uri()).minReplicas(1, WITHIN).connect();
    other = RedisLockClient.connect(redis.uri());
  }

  @AfterEach
  void stop() {
    acknowledged.close();
    other.close();
    redis.close();
  }

  @Test
  void aGrantReturnsOnlyOnceTheReplicaHasIt() throws Exception {
    try (Lease lease = acknowledged.lock("acked").acquire()) {
      assertThat(redis.replica().command("EXISTS", "baton:lock:acked")).isEqualTo(1L);
      assertThat(lease.fencingToken()).isPositive();
    }
  }

  @Test
  void aFailoverAfterAnAcknowledgedGrantKeepsTheHolding() throws Exception {
    Lease held = acknowledged.lock("failover").acquire(LockOptions.defaults().withTtl(Duration.ofSeconds(3)));
    RecordingLostListener lost = new RecordingLostListener();
    held.onLost(lost);

    redis.failover();

    await("the other client on the promoted replica").atMost(Duration.ofSeconds(10)).ignoreExceptions()
        .until(() -> other.status("failover").isHeld());
    assertThat(other.lock("failover").tryAcquire()).as("the promoted replica's answer").isEmpty();
    redis.awaitInSync();
    try (Lease next = acknowledged.lock("after").acquire(Duration.ofSeconds(10))) {
      assertThat(next.fencingToken()).isPositive();
    }
    assertThat(held.isHeld()).isTrue();
    assertThat(lost.reasons()).isEmpty();
    held.close();
    assertThat(other.lock("failover").tryAcquire()).as("released on the new primary").isPresent().get()
        .satisfies(Lease::close);
  }

  @Test
  void aGrantTheReplicaDoesNotAcknowledgeIsGivenBackAndSaysWhy() throws Exception {
    redis.cutReplication();

    assertThatThrownBy(() -> acknowledged.lock("lagging").tryAcquire())
        .isInstanceOf(BackendUnavailableException.class)
        .hasMessageContaining("'lagging'")
        .hasMessageContaining("0 of the 1 replicas")
        .hasMessageContaining("minReplicas");
    assertThatThrownBy(() -> acknowledged.lock("lagging").acquire(Duration.ofMillis(800)))
        .isInstanceOf(BackendUnavailableException.class)
        .hasMessageContaining("0 of the 1 replicas");
    assertThat(redis.primary().command("EXISTS", "baton:lock:lagging")).as("nothing left at the primary").isEqualTo(0L);
    assertThat(other.lock("lagging").tryAcquire()).as("free for a client without acknowledgement").isPresent().get()
        .satisfies(Lease::close);

    redis.restoreReplication();
    try (Lease lease = acknowledged.lock("lagging").acquire(Duration.ofSeconds(10))) {
      assertThat(redis.replica().command("EXISTS", "baton:lock:lagging")).isEqualTo(1L);
    }
  }

  @Test
  void renewalsTheReplicaDoesNotAcknowledgeLoseTheHoldingBeforeItsTtlRunsOut() throws Exception {
    Lease held = acknowledged.lock("renewing").acquire(LockOptions.defaults().withTtl(Duration.ofSeconds(1)));
    RecordingLostListener lost = new RecordingLostListener();
    held.onLost(lost);

    redis.cutReplication();

    await("the holder to learn that its renewals do not count").atMost(Duration.ofSeconds(10))
        .until(() -> lost.reasons().contains(LostReason.RENEWAL_FAILED));
    assertThat(held.isHeld()).isFalse();
  }

  @Test
  void badSettingsAreRefusedNamingTheValue() {
    assertThatThrownBy(() -> RedisLockClient.builder().minReplicas(-1, WITHIN))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("-1");
    assertThatThrownBy(() -> RedisLockClient.builder().minReplicas(1, Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("PT0S");
    assertThatThrownBy(() -> RedisLockClient.connect(redis.uri() + "?min-replicas=one"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("min-replicas='one'");
    assertThatThrownBy(() -> RedisLockClient.connect(redis.uri() + "?replica-wait-ms=100"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no min-replicas");
    assertThatThrownBy(() -> RedisLockClient.builder().uri(redis.uri() + "?min-replicas=2").minReplicas(1, WITHIN)
        .connect()).isInstanceOf(IllegalStateException.class).hasMessageContaining("one way");
  }

  @Test
  void theUriAsksForIt() throws Exception {
    redis.cutReplication();
    try (LockClient fromUri = RedisLockClient.connect(redis.uri() + "?min-replicas=1&replica-wait-ms=100")) {
      assertThatThrownBy(() -> fromUri.lock("uri").tryAcquire()).hasMessageContaining("within 100 ms");
    }
  }
}
