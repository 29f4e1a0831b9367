package dev.baton.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.LockHolder;
import dev.baton.LockStatus;
import dev.baton.spi.AcquireRequest;
import dev.baton.spi.Attempt;
import dev.baton.spi.Grant;
import dev.baton.spi.LockBackend;
import dev.baton.spi.Outcome;
import dev.baton.spi.QueueRule;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * What every store does with a {@link QueueRule} other than a mutex's, tested at the SPI without the engine: shared
 * entries hold together and exclude exclusive ones, a waiting exclusive entry holds back the shared entries that came
 * after it, N permits admit N holders, and every grant's fencing token is larger than those granted before it on the
 * key. Each store's test extends this with {@link #newBackend()}; every backend it makes is one client of the store.
 *
 * <p>Mutexes (the exclusive rule alone) are the {@link LockClientContract}'s subject; this suite is about the other
 * rules, and about an exclusive entry meeting them.
 */
public abstract class QueueRuleContract {
  /** How long a store keeps an entry without a renewal, in these tests: long enough never to expire in one. */
  private static final Duration TTL = Duration.ofSeconds(30);
  private static final Duration PROMPTLY = Duration.ofSeconds(10);
  /** How many times in a row a store may ask to be tried again at once before the try counts as waiting. */
  private static final int IMMEDIATE_RETRIES = 10;

  private final List<LockBackend> backends = new ArrayList<>();
  private final List<Attempt> waiting = new ArrayList<>();
  /** The grants still held, with the backend that holds each. */
  private final Map<Grant, LockBackend> held = new LinkedHashMap<>();
  private final AtomicLong sequence = new AtomicLong();
  private String key;

  /** A new client of the store under test, through its SPI. The suite closes it after the test. */
  protected abstract LockBackend newBackend();

  @BeforeEach
  void nameTheKey(TestInfo test) {
    key = "rule-" + test.getTestMethod().orElseThrow().getName() + "-" + UUID.randomUUID().toString().substring(0, 8);
  }

  @AfterEach
  void leaveNothingBehind() {
    waiting.forEach(Attempt::abandon);
    held.forEach((grant, backend) -> backend.release(grant));
    backends.forEach(LockBackend::close);
  }

  @Test
  void sharedEntriesHoldTogether() {
    Client first = new Client();
    Client second = new Client();
    Grant one = first.take(QueueRule.SHARED);
    Grant two = second.take(QueueRule.SHARED);
    Grant three = first.take(QueueRule.SHARED);

    assertThat(two.fencingToken()).isGreaterThan(one.fencingToken());
    assertThat(three.fencingToken()).isGreaterThan(two.fencingToken());
    assertThat(first.backend.status(key).isHeld()).isTrue();
  }

  @Test
  void anExclusiveEntryWaitsUntilEverySharedHolderHasGoneAndIsWokenThen() {
    Client readers = new Client();
    Client writer = new Client();
    Grant one = readers.take(QueueRule.SHARED);
    Grant two = readers.take(QueueRule.SHARED);
    Waiting write = writer.startWaiting(QueueRule.EXCLUSIVE);

    readers.release(one);
    assertThat(write.tryAgainOnce()).as("granted while a shared entry still holds").isNull();
    readers.release(two);
    Grant granted = write.awaitGrant();

    assertThat(granted.fencingToken()).as("larger than every shared token before it")
        .isGreaterThan(two.fencingToken()).isGreaterThan(one.fencingToken());
  }

  @Test
  void aSharedEntryWaitsForAnExclusiveHolderAndIsWokenWhenItGoes() {
    Client writer = new Client();
    Client reader = new Client();
    Grant write = writer.take(QueueRule.EXCLUSIVE);
    Waiting read = reader.startWaiting(QueueRule.SHARED);

    writer.release(write);

    assertThat(read.awaitGrant().fencingToken()).isGreaterThan(write.fencingToken());
  }

  @Test
  void aWaitingExclusiveEntryHoldsBackTheSharedEntriesThatCameAfterIt() {
    Client first = new Client();
    Client writer = new Client();
    Client later = new Client();
    Grant read = first.take(QueueRule.SHARED);
    Waiting write = writer.startWaiting(QueueRule.EXCLUSIVE);
    Waiting laterRead = later.startWaiting(QueueRule.SHARED);

    first.release(read);
    Grant written = write.awaitGrant();
    assertThat(laterRead.tryAgainOnce()).as("a later reader got in beside the writer").isNull();
    writer.release(written);

    assertThat(laterRead.awaitGrant().fencingToken()).isGreaterThan(written.fencingToken());
  }

  @Test
  void permitsAdmitAsManyHoldersAsTheyNumberAndTheNextWhenOneGoes() {
    QueueRule two = QueueRule.permits(2);
    Client first = new Client();
    Client second = new Client();
    Client third = new Client();
    Grant one = first.take(two);
    Grant other = second.take(two);
    Waiting next = third.startWaiting(two);

    second.release(other);
    Grant granted = next.awaitGrant();

    assertThat(granted.fencingToken()).isGreaterThan(other.fencingToken()).isGreaterThan(one.fencingToken());
    assertThat(third.startWaiting(two).tryAgainOnce()).as("a third permit while two are held").isNull();
  }

  @Test
  void anExclusiveEntryWaitsForEveryPermit() {
    QueueRule three = QueueRule.permits(3);
    Client holders = new Client();
    Client writer = new Client();
    Grant one = holders.take(three);
    Grant two = holders.take(three);
    Waiting write = writer.startWaiting(QueueRule.EXCLUSIVE);

    holders.release(one);
    assertThat(write.tryAgainOnce()).isNull();
    holders.release(two);

    assertThat(write.awaitGrant()).isNotNull();
  }

  @Test
  void renewalsAndReleasesActOnTheirOwnSharedEntryOnly() {
    Client first = new Client();
    Client second = new Client();
    Grant one = first.take(QueueRule.SHARED);
    Grant two = second.take(QueueRule.SHARED);

    assertThat(first.backend.renew(one, TTL).toCompletableFuture().join()).isTrue();
    first.release(one);
    assertThat(first.backend.release(one)).as("released twice").isFalse();
    assertThat(first.backend.renew(one, TTL).toCompletableFuture().join()).as("renewed after its release").isFalse();

    assertThat(second.backend.renew(two, TTL).toCompletableFuture().join()).isTrue();
    assertThat(second.backend.status(key).isHeld()).isTrue();
    second.release(two);
    assertThat(second.backend.status(key).isHeld()).isFalse();
  }

  @Test
  void anAbandonedSharedWaiterLeavesNoWaiterBehind() {
    Client writer = new Client();
    Client reader = new Client();
    Grant write = writer.take(QueueRule.EXCLUSIVE);
    Waiting read = reader.startWaiting(QueueRule.SHARED);

    read.abandon();
    writer.release(write);

    LockStatus status = writer.backend.status(key);
    assertThat(status.isHeld()).isFalse();
    assertThat(status.waiters()).isZero();
  }

  /** One client of the store: a backend of its own, whose acquisitions have owner ids of its own. */
  private final class Client {
    private final LockBackend backend = newBackend();
    private final String clientId = UUID.randomUUID().toString();

    Client() {
      backends.add(backend);
    }

    /** Takes an entry that must be granted at once. */
    Grant take(QueueRule rule) {
      Waiting attempt = startWaiting(rule);
      Grant grant = attempt.tryAgainOnce();
      assertThat(grant).as("granted at once: %s on '%s'", rule, key).isNotNull();
      return grant;
    }

    /** Starts a fair acquisition that may wait, with its first try made. */
    Waiting startWaiting(QueueRule rule) {
      AcquireRequest request = new AcquireRequest(key, clientId + ":" + sequence.incrementAndGet(), rule, TTL, null,
          true, true, new LockHolder("test-host", ProcessHandle.current().pid(), "test", Instant.now()));
      Waiting attempt = new Waiting(backend, backend.newAttempt(request));
      attempt.tryAgainOnce();
      return attempt;
    }

    void release(Grant grant) {
      assertThat(backend.release(grant)).as("released %s", grant.request().lockName()).isTrue();
      held.remove(grant);
    }
  }

  /** An acquisition at the store that may be waiting: its wake-ups are counted. */
  private final class Waiting {
    private final LockBackend backend;
    private final Attempt attempt;
    private final AtomicInteger wakeUps = new AtomicInteger();
    private Grant grant;

    Waiting(LockBackend backend, Attempt attempt) {
      this.backend = backend;
      this.attempt = attempt;
      waiting.add(attempt);
    }

    /** One try (and the immediate retries a store asks for): the grant, or null with the attempt waiting. */
    Grant tryAgainOnce() {
      if (grant != null) {
        return grant;
      }
      for (int i = 0; i < IMMEDIATE_RETRIES; i++) {
        Outcome outcome = attempt.tryAcquire(wakeUps::incrementAndGet);
        if (outcome.isGranted()) {
          grant = outcome.grant();
          attempt.stopWaiting();
          waiting.remove(attempt);
          held.put(grant, backend);
          return grant;
        }
        if (!outcome.retryAfter().isZero()) {
          return null;
        }
      }
      return null;
    }

    /** Waits for a wake-up and tries then, until granted: a store must wake a waiter once it could hold. */
    Grant awaitGrant() {
      await().atMost(PROMPTLY.toMillis(), TimeUnit.MILLISECONDS).pollInterval(Duration.ofMillis(5)).until(() -> {
        if (wakeUps.get() == 0) {
          return false;
        }
        wakeUps.set(0);
        return tryAgainOnce() != null;
      });
      return grant;
    }

    void abandon() {
      attempt.abandon();
      waiting.remove(attempt);
    }
  }
}
