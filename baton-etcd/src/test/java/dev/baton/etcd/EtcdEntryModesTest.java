package dev.baton.etcd;

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
import dev.baton.testkit.EtcdServerExtension;
import io.etcd.jetcd.KeyValue;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What etcd does with shared entries and permits beyond the {@link dev.baton.testkit.QueueRuleContract}: how their
 * entries are named and reused, what each waiter watches, how many requests a grant and a release cost, what status
 * and list show of a lock with several holders, and an older client's exclusive entry among them.
 */
class EtcdEntryModesTest {
  @RegisterExtension
  static final EtcdServerExtension etcd = new EtcdServerExtension();

  private static final Duration TTL = Duration.ofSeconds(30);

  private static EtcdInspector inspector;
  private final List<LockBackend> backends = new ArrayList<>();
  private final List<Attempt> waiting = new ArrayList<>();
  private String key;

  @BeforeAll
  static void inspect() {
    inspector = new EtcdInspector(etcd.endpoint());
  }

  @AfterAll
  static void stopInspecting() {
    inspector.close();
  }

  @BeforeEach
  void chooseKey(TestInfo test) {
    key = "modes/" + test.getTestMethod().orElseThrow().getName() + "/"
        + Long.toHexString(ThreadLocalRandom.current().nextLong());
  }

  @AfterEach
  void closeBackends() {
    waiting.forEach(Attempt::abandon);
    backends.forEach(LockBackend::close);
  }

  @Test
  @Timeout(30)
  void aClientsSharedEntriesOnAKeyAreOnePerAcquisitionUnderWayAndTheirNamesAreReused() {
    Client client = new Client();
    Grant first = client.take(QueueRule.SHARED);
    Grant second = client.take(QueueRule.SHARED);
    long lease = inspector.holderLease(key);
    String hex = Long.toHexString(lease);
    assertThat(names()).containsExactly("~s/" + hex + "/0", "~s/" + hex + "/1");

    client.release(first);
    Grant third = client.take(QueueRule.SHARED);
    assertThat(names()).as("the first's name, written again").containsExactly("~s/" + hex + "/1", "~s/" + hex + "/0");
    assertThat(third.fencingToken()).isGreaterThan(second.fencingToken());

    client.release(second);
    client.release(third);
    Grant permit = client.take(QueueRule.permits(4));
    assertThat(names()).containsExactly("~p4/" + hex + "/0");
    client.release(permit);
  }

  /**
   * A lock or a shared entry watches the one entry the rule names; N permits watch the N nearest, as any of them
   * going lets the first waiter in. The readers behind a writer all watch the writer, and all get in when it goes.
   */
  @Test
  @Timeout(30)
  void eachWaiterWatchesTheEntriesItsRuleWaitsForAndNoOthers() {
    EtcdMetrics metrics = new EtcdMetrics(etcd.endpoint());
    long before = metrics.watchers();
    Client readers = new Client();
    readers.take(QueueRule.SHARED);
    readers.take(QueueRule.SHARED);
    Client writer = new Client();
    Waiting write = writer.startWaiting(QueueRule.EXCLUSIVE);
    List<Waiting> laterReads = List.of(new Client().startWaiting(QueueRule.SHARED),
        new Client().startWaiting(QueueRule.SHARED));
    await("one watcher per waiter").until(() -> metrics.watchers() == before + 3);

    String semaphore = key + "/permits";
    Client holders = new Client();
    holders.take(semaphore, QueueRule.permits(3));
    holders.take(semaphore, QueueRule.permits(3));
    holders.take(semaphore, QueueRule.permits(3));
    new Client().startWaiting(semaphore, QueueRule.permits(3));
    await("three watchers for a waiter of three permits").until(() -> metrics.watchers() == before + 6);

    readers.releaseAll();
    Grant written = write.awaitGrant();
    writer.release(written);
    laterReads.forEach(read -> assertThat(read.awaitGrant().fencingToken()).isGreaterThan(written.fencingToken()));
  }

  /**
   * As a lock's: one write transaction to acquire, none to read, one request to release (a lock's, a plain delete; the
   * others', a transaction); the lease's life asked beside.
   */
  @Test
  @Timeout(30)
  void anUncontendedAcquireAndItsReleaseAreOneRequestEachWhateverTheRule() {
    EtcdMetrics metrics = new EtcdMetrics(etcd.endpoint());
    Client client = new Client();
    for (QueueRule rule : List.of(QueueRule.EXCLUSIVE, QueueRule.SHARED, QueueRule.permits(2))) {
      long txns = metrics.calls("Txn");
      long ranges = metrics.calls("Range");
      long deletes = metrics.calls("DeleteRange");
      Grant grant = client.take(rule);
      assertThat(metrics.calls("Txn") - txns).as("transactions to acquire under %s", rule).isEqualTo(1);
      client.release(grant);
      boolean deletedByName = rule.equals(QueueRule.EXCLUSIVE);
      assertThat(metrics.calls("Txn") - txns).as("transactions to acquire and release under %s", rule)
          .isEqualTo(deletedByName ? 1 : 2);
      assertThat(metrics.calls("DeleteRange") - deletes).as("plain deletes under %s", rule)
          .isEqualTo(deletedByName ? 1 : 0);
      assertThat(metrics.calls("Range") - ranges).as("reads outside them under %s", rule).isZero();
    }
  }

  @Test
  @Timeout(30)
  void statusAndListShowALockWithSeveralHoldersOnceHeldByTheOldestWithTheEntriesThatWaitAsWaiters() {
    Client first = new Client();
    Grant oldest = first.take(QueueRule.SHARED);
    Client second = new Client();
    Grant beside = second.take(QueueRule.SHARED);
    Waiting write = new Client().startWaiting(QueueRule.EXCLUSIVE);
    Waiting read = new Client().startWaiting(QueueRule.SHARED);

    LockStatus status = first.backend.status(key);
    assertThat(status.isHeld()).isTrue();
    assertThat(status.ownerId()).contains(oldest.request().ownerId());
    assertThat(status.fencingToken()).hasValue(oldest.fencingToken());
    assertThat(status.waiters()).as("the writer and the reader behind it").isEqualTo(2);
    List<LockStatus> listed = first.backend.list(key, 10);
    assertThat(listed).hasSize(1).first().satisfies(lock -> {
      assertThat(lock.key()).isEqualTo(key);
      assertThat(lock.ownerId()).contains(oldest.request().ownerId());
      assertThat(lock.waiters()).isEqualTo(2);
    });

    first.release(oldest);
    second.release(beside);
    write.abandon();
    read.awaitGrant();
    assertThat(first.backend.status(key).waiters()).isZero();
    read.client.release(read.grant());
    assertThat(first.backend.status(key).isHeld()).isFalse();
    assertThat(inspector.count(key)).as("entries left behind").isZero();
  }

  /**
   * During a rolling upgrade an older Baton client queues on a mutex with an entry named by its lease alone, and
   * counts every entry under the key as exclusive; a shared entry of a newer client waits for it, and its release.
   */
  @Test
  @Timeout(30)
  void anOlderClientsEntryKeepsASharedEntryWaitingUntilItGoes() {
    long olderLease = inspector.grantLease(30);
    inspector.putEntry(key, Long.toHexString(olderLease), "older-client:1", olderLease);
    KeyValue older = inspector.entries(key).get(0);
    Waiting read = new Client().startWaiting(QueueRule.SHARED);
    assertThat(read.grant()).as("granted beside an older client's entry").isNull();

    inspector.delete(older);

    assertThat(read.awaitGrant().fencingToken()).isGreaterThan(older.getCreateRevision());
    inspector.revoke(olderLease);
  }

  /** The names of the key's entries, after its prefix, oldest first. */
  private List<String> names() {
    String prefix = EtcdInspector.text(inspector.prefix(key));
    return inspector.entries(key).stream().map(entry -> EtcdInspector.text(entry.getKey()).substring(prefix.length()))
        .toList();
  }

  /** One client of etcd, through the SPI. */
  private final class Client {
    private final LockBackend backend = EtcdQueueRuleTest.connect(etcd.endpoint());
    private final String clientId = UUID.randomUUID().toString();
    private final AtomicInteger sequence = new AtomicInteger();
    private final List<Grant> held = new ArrayList<>();

    Client() {
      backends.add(backend);
    }

    Grant take(QueueRule rule) {
      return take(key, rule);
    }

    Grant take(String lock, QueueRule rule) {
      Grant grant = startWaiting(lock, rule).grant();
      assertThat(grant).as("granted at once: %s on '%s'", rule, lock).isNotNull();
      return grant;
    }

    Waiting startWaiting(QueueRule rule) {
      return startWaiting(key, rule);
    }

    Waiting startWaiting(String lock, QueueRule rule) {
      AcquireRequest request = new AcquireRequest(lock, clientId + ":" + sequence.incrementAndGet(), rule, TTL, null,
          true, true, new LockHolder("test-host", ProcessHandle.current().pid(), "test", Instant.now()));
      Waiting attempt = new Waiting(this, backend.newAttempt(request));
      attempt.tryOnce();
      return attempt;
    }

    void release(Grant grant) {
      assertThat(backend.release(grant)).as("released %s", grant.request().lockName()).isTrue();
      held.remove(grant);
    }

    void releaseAll() {
      List.copyOf(held).forEach(this::release);
    }
  }

  /** An acquisition that may be waiting, its wake-ups counted. */
  private final class Waiting {
    private final Client client;
    private final Attempt attempt;
    private final AtomicInteger wakeUps = new AtomicInteger();
    private Grant grant;

    Waiting(Client client, Attempt attempt) {
      this.client = client;
      this.attempt = attempt;
      waiting.add(attempt);
    }

    /** The grant, or null while the attempt waits. */
    Grant grant() {
      return grant;
    }

    /** One try, with the immediate retries the store asks for. */
    void tryOnce() {
      Outcome outcome = attempt.tryAcquire(wakeUps::incrementAndGet);
      while (!outcome.isGranted() && outcome.retryAfter().isZero()) {
        outcome = attempt.tryAcquire(wakeUps::incrementAndGet);
      }
      if (outcome.isGranted()) {
        grant = outcome.grant();
        attempt.stopWaiting();
        waiting.remove(attempt);
        client.held.add(grant);
      }
    }

    /** Tries again on each wake-up until granted. */
    Grant awaitGrant() {
      await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(5)).until(() -> {
        if (wakeUps.getAndSet(0) > 0) {
          tryOnce();
        }
        return grant != null;
      });
      return grant;
    }

    void abandon() {
      attempt.abandon();
      waiting.remove(attempt);
    }
  }
}
