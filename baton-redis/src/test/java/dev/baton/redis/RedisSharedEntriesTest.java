package dev.baton.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.LockHolder;
import dev.baton.LockStatus;
import dev.baton.spi.AcquireRequest;
import dev.baton.spi.Attempt;
import dev.baton.spi.Grant;
import dev.baton.spi.Outcome;
import dev.baton.spi.QueueRule;
import dev.baton.testkit.RedisServerExtension;
import io.lettuce.core.RedisURI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What Redis stores for shared entries, permits and waiting writers (see acquire.lua), at the SPI: each entry expires
 * on its own, the lock hash lives as long as its longest-lived entry, a waiting writer holds back only the shared
 * entries that came after it and only while it keeps trying, and once everyone has gone only the fencing counter is
 * left.
 */
@Timeout(60)
class RedisSharedEntriesTest {
  @RegisterExtension
  static final RedisServerExtension redis = new RedisServerExtension();

  /** Never expires within a test. */
  private static final Duration LONG_TTL = Duration.ofSeconds(30);
  /** Expires within a test, long enough for a busy machine to make the tries before it. */
  private static final Duration SHORT_TTL = Duration.ofSeconds(1);
  private static final Duration PROMPTLY = Duration.ofSeconds(5);

  private final List<RedisBackend> backends = new ArrayList<>();
  private final AtomicLong sequence = new AtomicLong();
  private String key;

  @BeforeEach
  void nameTheKey(TestInfo test) {
    key = test.getTestMethod().orElseThrow().getName();
  }

  @AfterEach
  void closeBackends() {
    backends.forEach(RedisBackend::close);
  }

  @Test
  void anEntryThatIsNotRenewedExpiresOnItsOwnWhileTheOthersAreRenewed() {
    QueueRule two = QueueRule.permits(2);
    Grant crashed = new Client().take(two, SHORT_TTL);
    Client keeper = new Client();
    Grant kept = keeper.take(two, LONG_TTL);
    Try next = new Client().start(two, LONG_TTL);

    assertThat(next.again().retryAfter()).as("the wait bound: the crashed entry's expire")
        .isPositive().isLessThanOrEqualTo(SHORT_TTL.plusMillis(1));
    await().atMost(PROMPTLY).until(() -> keeper.backend.renew(kept, LONG_TTL).toCompletableFuture().join()
        && next.again().isGranted());

    assertThat(redis.command("HEXISTS", lockHash(), crashed.request().ownerId())).as("the expired entry").isEqualTo(0L);
    assertThat(keeper.backend.renew(crashed, LONG_TTL).toCompletableFuture().join()).as("renewed after its expire").isFalse();
    assertThat(keeper.backend.release(crashed)).as("released after its expire").isFalse();
    assertThat(keeper.backend.renew(kept, LONG_TTL).toCompletableFuture().join()).isTrue();
  }

  @Test
  void theLockHashLivesAsLongAsItsLongestLivedEntry() {
    Client first = new Client();
    Grant shortLived = first.take(QueueRule.SHARED, SHORT_TTL);
    Grant longerLived = new Client().take(QueueRule.SHARED, SHORT_TTL.multipliedBy(3));

    assertThat(first.backend.status(key).ownerId()).contains(shortLived.request().ownerId());
    await("the first entry's expire").atMost(PROMPTLY)
        .until(() -> first.backend.status(key).ownerId().equals(Optional.of(longerLived.request().ownerId())));
    assertThat(redis.command("EXISTS", lockHash())).as("the hash while an entry lives").isEqualTo(1L);
    await("the last entry's expire").atMost(PROMPTLY).until(() -> redis.command("EXISTS", lockHash()).equals(0L));
    assertThat(first.backend.status(key).isHeld()).isFalse();
  }

  /**
   * The record lives by the writer's own ttl, not by what it waits for (a reader with a long ttl here): the writer
   * tries again within a third of its ttl, and once it has crashed its record expires one ttl after its last try.
   */
  @Test
  void aWaitingWriterThatCrashedStopsHoldingBackLaterSharedEntriesOneOfItsTtlsAfterItsLastTry() {
    for (boolean fair : List.of(true, false)) {
      Client firstReader = new Client();
      Grant longRead = firstReader.take(QueueRule.SHARED, LONG_TTL);
      Client crashing = new Client();
      Try writer = crashing.start(QueueRule.EXCLUSIVE, SHORT_TTL, fair);
      assertThat(writer.again().retryAfter()).as("the writer's next try, fair: %s", fair)
          .isPositive().isLessThanOrEqualTo(SHORT_TTL.dividedBy(3).plusMillis(1));
      assertThat((Long) redis.command("PTTL", writersHash())).as("the writer's record: one of its ttls")
          .isPositive().isLessThanOrEqualTo(SHORT_TTL.toMillis());
      crashing.crash();

      Try reader = new Client().start(QueueRule.SHARED, LONG_TTL);
      Outcome heldBack = reader.again();
      assertThat(heldBack.isGranted()).as("held back by the writer").isFalse();
      assertThat(heldBack.retryAfter()).as("the reader's wait: the writer's record's expire")
          .isLessThanOrEqualTo(SHORT_TTL.plusMillis(1));
      await().atMost(PROMPTLY).until(() -> reader.again().isGranted());

      assertThat(redis.command("EXISTS", writersHash())).as("the expired writer's record").isEqualTo(0L);
      reader.client.backend.release(reader.outcome.grant());
      firstReader.backend.release(longRead);
    }
  }

  @Test
  void aWriterThatGivesUpWakesTheSharedEntriesItHeldBack() {
    new Client().take(QueueRule.SHARED, LONG_TTL);
    Try writer = new Client().start(QueueRule.EXCLUSIVE, LONG_TTL);
    writer.again();
    Try reader = new Client().start(QueueRule.SHARED, LONG_TTL);
    assertThat(reader.again().isGranted()).as("held back by the writer").isFalse();

    writer.attempt.abandon();

    await("the reader's wake-up").atMost(PROMPTLY).until(() -> reader.wakeUps.get() > 0);
    assertThat(reader.again().isGranted()).isTrue();
    assertThat(redis.command("EXISTS", writersHash())).as("the withdrawn writer's record").isEqualTo(0L);
  }

  @Test
  void sharedEntriesThatArrivedBeforeAWaitingWriterAreNotHeldBackByIt() {
    Client holder = new Client();
    Grant exclusive = holder.take(QueueRule.EXCLUSIVE, LONG_TTL);
    Try reader = new Client().start(QueueRule.SHARED, LONG_TTL);
    reader.again();
    Try writer = new Client().start(QueueRule.EXCLUSIVE, LONG_TTL);
    writer.again();

    holder.backend.release(exclusive);

    await("the reader's wake-up").atMost(PROMPTLY).until(() -> reader.wakeUps.get() > 0);
    assertThat(reader.again().isGranted()).as("the reader that came before the waiting writer").isTrue();
    assertThat(writer.again().isGranted()).as("the writer beside a shared holder").isFalse();
  }

  /**
   * QueueRule counts an older exclusive entry as one of N permits, so that a permit would hold beside it; Redis keeps
   * an exclusive holder alone.
   */
  @Test
  void nothingHoldsBesideAnExclusiveHolderNotEvenOneOfSeveralPermits() {
    Client holder = new Client();
    Grant exclusive = holder.take(QueueRule.EXCLUSIVE, LONG_TTL);
    Try permit = new Client().start(QueueRule.permits(3), LONG_TTL);
    assertThat(permit.again().isGranted()).as("a permit beside an exclusive holder").isFalse();

    holder.backend.release(exclusive);

    await("the permit's wake-up").atMost(PROMPTLY).until(() -> permit.wakeUps.get() > 0);
    assertThat(permit.again().grant().fencingToken()).isGreaterThan(exclusive.fencingToken());
  }

  @Test
  void statusAndListShowTheOldestSharedHolderWithItsTimeLeft() {
    Client first = new Client();
    Grant oldest = first.take(QueueRule.SHARED, LONG_TTL);
    new Client().take(QueueRule.SHARED, LONG_TTL);

    for (LockStatus status : List.of(first.backend.status(key), first.backend.list(key, 10).get(0))) {
      assertThat(status.key()).isEqualTo(key);
      assertThat(status.ownerId()).contains(oldest.request().ownerId());
      assertThat(status.fencingToken()).hasValue(oldest.fencingToken());
      assertThat(status.remainingTtl()).hasValueSatisfying(ttl -> assertThat(ttl).isPositive().isLessThanOrEqualTo(LONG_TTL));
      assertThat(status.holder()).hasValueSatisfying(holder -> assertThat(holder.host()).isEqualTo("test-host"));
    }
  }

  @Test
  void onceEveryoneHasGoneOnlyTheFencingCounterIsLeft() {
    Client readers = new Client();
    Grant one = readers.take(QueueRule.SHARED, LONG_TTL);
    Grant two = readers.take(QueueRule.SHARED, LONG_TTL);
    Try writer = new Client().start(QueueRule.EXCLUSIVE, LONG_TTL);
    writer.again();
    Try lateReader = new Client().start(QueueRule.SHARED, LONG_TTL);
    lateReader.again();
    Try permit = new Client().start(QueueRule.permits(1), LONG_TTL);
    permit.again();

    lateReader.attempt.abandon();
    permit.attempt.abandon();
    readers.backend.release(one);
    readers.backend.release(two);
    await("the writer's wake-up").atMost(PROMPTLY).until(() -> writer.wakeUps.get() > 0);
    Grant written = writer.again().grant();
    writer.attempt.stopWaiting();
    writer.client.backend.release(written);

    await("the yield of the last release, which a waiter had asked to be woken by").atMost(PROMPTLY)
        .untilAsserted(() -> assertThat(redis.command("KEYS", "baton:*" + key)).isEqualTo(List.of("baton:fence:" + key)));
  }

  private String lockHash() {
    return "baton:lock:" + key;
  }

  private String writersHash() {
    return "baton:writers:" + key;
  }

  /** One client of the store: a backend of its own, whose acquisitions have owner ids of its own. */
  private final class Client {
    private final RedisBackend backend = RedisBackend.connect(RedisURI.create(redis.uri()),
        RedisLockClient.DEFAULT_NAMESPACE, Duration.ofSeconds(2), Duration.ofSeconds(2), RedisLockClient.DEFAULT_YIELD_TIME,
        ReplicaAcks.NONE);
    private final String clientId = UUID.randomUUID().toString();

    Client() {
      backends.add(backend);
    }

    /** Stops talking to the store, leaving what it wrote there, as a client that crashed would. */
    void crash() {
      backends.remove(backend);
      backend.close();
    }

    /** An entry granted at its first try. */
    Grant take(QueueRule rule, Duration ttl) {
      Try first = start(rule, ttl);
      assertThat(first.outcome.isGranted()).as("granted at once: %s on '%s'", rule, key).isTrue();
      first.attempt.stopWaiting();
      return first.outcome.grant();
    }

    /** A fair acquisition that may wait, with its first try made. */
    Try start(QueueRule rule, Duration ttl) {
      return start(rule, ttl, true);
    }

    /** An acquisition that may wait, with its first try made. */
    Try start(QueueRule rule, Duration ttl, boolean fair) {
      AcquireRequest request = new AcquireRequest(key, clientId + ":" + sequence.incrementAndGet(), rule, ttl, null,
          fair, true, new LockHolder("test-host", ProcessHandle.current().pid(), "test", Instant.now()));
      Try attempt = new Try(this, backend.newAttempt(request));
      attempt.again();
      return attempt;
    }
  }

  /** An acquisition and what its last try achieved; its wake-ups are counted. */
  private static final class Try {
    private final Client client;
    private final Attempt attempt;
    private final AtomicInteger wakeUps = new AtomicInteger();
    private Outcome outcome;

    Try(Client client, Attempt attempt) {
      this.client = client;
      this.attempt = attempt;
    }

    Outcome again() {
      wakeUps.set(0);
      outcome = attempt.tryAcquire(wakeUps::incrementAndGet);
      return outcome;
    }
  }
}
