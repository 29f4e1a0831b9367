package dev.baton.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.LockClient;
import dev.baton.LockStatus;
import dev.baton.LockTimeoutException;
import dev.baton.testkit.RedisServerExtension;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What a client compatible with Redisson says of names that others hold, written here exactly as they write them:
 * a plain {@code RLock} takes no fencing token, an {@code RFencedLock} takes the counter's, and a hash an application
 * wrote at the name, without expiry, holds the name as acquire.lua sees it: status says so, and an acquisition times
 * out.
 */
@Timeout(60)
class RedissonPeerStatusTest {
  private static final String REDISSON_HOLDER = "0b4e6c1a-5f2e-4b8e-9a57-3c1d2e4f5a6b:1";

  @RegisterExtension
  static final RedisServerExtension redis = new RedisServerExtension();

  private LockClient client;

  @BeforeEach
  void connect() {
    redis.command("FLUSHALL");
    client = new RedissonCompatClientFactory().connect(redis.uri());
  }

  @AfterEach
  void close() {
    client.close();
  }

  @Test
  void aPlainRLockHolderHasNoFencingToken() {
    redis.command("HSET", "nightly", REDISSON_HOLDER, "1");
    redis.command("PEXPIRE", "nightly", "30000");
    LockStatus status = client.status("nightly");
    assertThat(status.isHeld()).isTrue();
    assertThat(status.ownerId()).contains(REDISSON_HOLDER);
    assertThat(status.fencingToken()).isEmpty();
    assertThat(status.remainingTtl()).hasValueSatisfying(ttl -> assertThat(ttl).isPositive());
    assertThat(client.list("", 10)).singleElement().satisfies(listed -> assertThat(listed.fencingToken()).isEmpty());
  }

  @Test
  void anRFencedLockHolderHasTheCountersToken() {
    redis.command("HSET", "nightly", REDISSON_HOLDER, "1");
    redis.command("PEXPIRE", "nightly", "30000");
    redis.command("SET", "redisson_lock_token:{nightly}", "42");
    assertThat(client.status("nightly").fencingToken()).hasValue(42L);
  }

  @Test
  void aHashWithoutExpiryThatNoLockWroteHoldsTheNameForStatusAndAcquisitionAlike() {
    redis.command("HSET", "settings", "color", "blue");
    LockStatus status = client.status("settings");
    assertThat(status.isHeld()).as("the status of a name acquire.lua finds taken").isTrue();
    assertThat(status.ownerId()).isEmpty();
    assertThat(status.fencingToken()).isEmpty();
    assertThat(status.remainingTtl()).as("nothing frees it").isEmpty();
    assertThat(status.holder()).isEmpty();
    assertThat(status.toString()).contains("held by an unknown holder").doesNotContain("token");
    assertThatThrownBy(() -> client.lock("settings").acquire(Duration.ofMillis(300)))
        .isInstanceOf(LockTimeoutException.class);
    assertThat(client.list("", 10)).as("a list shows locks, and the hash is none").isEmpty();
    assertThat(redis.command("HGET", "settings", "color")).isEqualTo("blue");
  }

  @Test
  void aHashThatNoLockWroteShowsItsExpiry() {
    redis.command("HSET", "settings", "color", "blue");
    redis.command("PEXPIRE", "settings", "30000");
    assertThat(client.status("settings").remainingTtl()).hasValueSatisfying(ttl -> assertThat(ttl).isPositive());
  }
}
