package dev.baton.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.LockHolder;
import dev.baton.spi.AcquireRequest;
import dev.baton.spi.Grant;
import dev.baton.spi.HolderRecord;
import dev.baton.spi.Outcome;
import dev.baton.spi.QueueRule;
import dev.baton.testkit.RedisServerExtension;
import io.lettuce.core.RedisURI;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * During a rolling upgrade an older Baton, which knew mutexes only, and this one share keys: whatever each holds,
 * the other finds the key taken, and a release wakes the other's waiters. The older client is its own scripts
 * (test resources {@code older/}), run as it ran them.
 */
class RedisRollingUpgradeTest {
  @RegisterExtension
  static final RedisServerExtension redis = new RedisServerExtension();

  private static final String OLDER_ACQUIRE = olderScript("acquire.lua");
  private static final String OLDER_RELEASE = olderScript("release.lua");
  private static final Duration TTL = Duration.ofSeconds(30);
  private static final String OLDER_CLIENT = "olderclient";

  private final AtomicLong sequence = new AtomicLong();
  private RedisBackend backend;
  private String key;

  @BeforeEach
  void connect(TestInfo test) {
    key = test.getTestMethod().orElseThrow().getName();
    backend = RedisBackend.connect(RedisURI.create(redis.uri()), RedisLockClient.DEFAULT_NAMESPACE, Duration.ofSeconds(2),
        Duration.ofSeconds(2), RedisLockClient.DEFAULT_YIELD_TIME, ReplicaAcks.NONE);
  }

  @AfterEach
  void close() {
    backend.close();
  }

  @Test
  void anOlderClientsMutexAndThisClientsEntriesExcludeEachOther() {
    String olderOwner = OLDER_CLIENT + ":1";
    List<?> olderGrant = olderAcquire(olderOwner, false);
    assertThat(olderGrant.get(0)).as("the older client's grant").isEqualTo(1L);
    for (QueueRule rule : List.of(QueueRule.EXCLUSIVE, QueueRule.SHARED, QueueRule.permits(3))) {
      assertThat(tryOnce(rule).isGranted()).as("%s beside the older client's mutex", rule).isFalse();
    }
    assertThat(olderRelease(olderOwner)).isEqualTo(1L);

    Grant shared = tryOnce(QueueRule.SHARED).grant();
    Grant permit = tryOnce(QueueRule.permits(3)).grant();
    assertThat(shared.fencingToken()).isGreaterThan((Long) olderGrant.get(1));
    String nextOlderOwner = OLDER_CLIENT + ":2";
    assertThat(olderAcquire(nextOlderOwner, false).get(0)).as("the older client beside shared entries").isEqualTo(0L);
    assertThat(olderRelease(nextOlderOwner)).as("the older client's release of a key it does not hold").isEqualTo(0L);
    assertThat(backend.release(shared)).isTrue();
    assertThat(olderAcquire(nextOlderOwner, false).get(0)).as("the older client beside a permit").isEqualTo(0L);
    assertThat(backend.release(permit)).isTrue();

    List<?> again = olderAcquire(nextOlderOwner, false);
    assertThat(again.get(0)).as("the older client once every entry has gone").isEqualTo(1L);
    assertThat((Long) again.get(1)).isGreaterThan(permit.fencingToken());
    assertThat(olderRelease(nextOlderOwner)).isEqualTo(1L);
  }

  @Test
  void theLastReleaseOfSharedEntriesWakesAnOlderClientThatWaits() {
    Grant shared = tryOnce(QueueRule.SHARED).grant();
    assertThat(olderAcquire(OLDER_CLIENT + ":1", true).get(0)).isEqualTo(0L);
    redis.command("CONFIG", "RESETSTAT");

    backend.release(shared);

    assertThat((String) redis.command("INFO", "commandstats")).contains("cmdstat_publish");
    assertThat(olderAcquire(OLDER_CLIENT + ":1", false).get(0)).isEqualTo(1L);
    assertThat(olderRelease(OLDER_CLIENT + ":1")).isEqualTo(1L);
  }

  private Outcome tryOnce(QueueRule rule) {
    AcquireRequest request = new AcquireRequest(key, "newclient:" + sequence.incrementAndGet(), rule, TTL, null, true,
        false, new LockHolder("new-host", 1, "test", Instant.now()));
    return backend.newAttempt(request).tryAcquire(() -> {});
  }

  /** The older acquire.lua: {1, token} when granted, {0, ms left} when not. */
  private List<?> olderAcquire(String ownerId, boolean waiting) {
    return (List<?>) redis.command("EVAL", OLDER_ACQUIRE, "3", "baton:lock:" + key, "baton:fence:" + key,
        "baton:yield:" + key, ownerId, Long.toString(TTL.toMillis()), waiting ? "1" : "0", Long.toString(TTL.toMillis()),
        HolderRecord.write(new LockHolder("older-host", 1, "test", Instant.now())));
  }

  /** The older release.lua, without a yield or a keep: 1 if it was the owner's, 0 if not. */
  private Object olderRelease(String ownerId) {
    return redis.command("EVAL", OLDER_RELEASE, "2", "baton:lock:" + key, "baton:yield:" + key, ownerId,
        "baton:wake:" + key, "0", "0");
  }

  private static String olderScript(String name) {
    try (InputStream in = RedisRollingUpgradeTest.class.getResourceAsStream("older/" + name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read the older script " + name, e);
    }
  }
}
