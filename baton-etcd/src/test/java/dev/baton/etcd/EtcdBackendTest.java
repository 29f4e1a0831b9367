package dev.baton.etcd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.BackendUnavailableException;
import dev.baton.DistributedLock;
import dev.baton.Lease;
import dev.baton.LeaseState;
import dev.baton.LockClient;
import dev.baton.LockObserver;
import dev.baton.Primitive;
import dev.baton.LockOptions;
import dev.baton.LockStatus;
import dev.baton.LostReason;
import dev.baton.servers.TcpProxy;
import dev.baton.spi.QueueRule;
import dev.baton.testkit.EtcdServerExtension;
import dev.baton.testkit.RecordingLostListener;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.kv.TxnResponse;
import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/** What only etcd does to a lock: leases revoked, a predecessor's watch, restarts and outages; and the client's own settings. */
class EtcdBackendTest {
  @RegisterExtension
  static final EtcdServerExtension etcd = new EtcdServerExtension();

  private static final Duration SESSION_TIMEOUT = Duration.ofSeconds(3);
  private static final Duration LONG_WAIT = Duration.ofSeconds(10);
  /** How long something that must not happen is watched for. */
  private static final Duration A_WHILE = Duration.ofMillis(500);

  private static EtcdInspector inspector;
  private final List<LockClient> clients = new ArrayList<>();
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
    key = "etcd/" + test.getTestMethod().orElseThrow().getName() + "/"
        + Long.toHexString(ThreadLocalRandom.current().nextLong());
  }

  @AfterEach
  void closeClientsAndBringEtcdBack() {
    clients.forEach(LockClient::close);
    if (!etcd.server().isRunning()) {
      etcd.server().start();
    }
  }

  private LockClient client(EtcdLockClient.Builder builder) {
    LockClient client = builder.connect();
    clients.add(client);
    return client;
  }

  private LockClient client() {
    return client(EtcdLockClient.builder().endpoints(etcd.endpoint()).sessionTimeout(SESSION_TIMEOUT));
  }

  // Leases

  @Test
  @Timeout(30)
  void aRevokedLeaseIsReportedLostAndTheNextHolderGetsALargerToken() throws Exception {
    Lease lease = client().lock(key).acquire(LONG_WAIT);
    RecordingLostListener lost = new RecordingLostListener();
    lease.onLost(lost);

    inspector.revoke(inspector.holderLease(key));

    await().atMost(Duration.ofSeconds(5)).until(() -> !lost.reasons().isEmpty());
    assertThat(lost.reasons()).hasSize(1).first().isIn(LostReason.SESSION_EXPIRED, LostReason.ENTRY_REMOVED);
    assertThat(lease.isHeld()).isFalse();
    assertThat(lease.state()).isEqualTo(LeaseState.LOST);
    try (Lease next = client().lock(key).acquire(LONG_WAIT)) {
      assertThat(next.fencingToken()).isGreaterThan(lease.fencingToken());
    }
    await("the listener called only once").during(A_WHILE).atMost(Duration.ofSeconds(3))
        .until(() -> lost.reasons().size() == 1);
  }

  @Test
  @Timeout(30)
  void everyLockOfARevokedLeaseIsLostAndTheClientWorksOnWithANewLease() throws Exception {
    LockClient client = client();
    Lease first = client.lock(key + "/a").acquire(LONG_WAIT);
    Lease second = client.lock(key + "/b").acquire(LONG_WAIT);
    long revoked = inspector.holderLease(key + "/a");
    assertThat(inspector.holderLease(key + "/b")).as("one lease per client").isEqualTo(revoked);

    inspector.revoke(revoked);

    await().atMost(Duration.ofSeconds(5)).until(() -> !first.isHeld() && !second.isHeld());
    await().atMost(Duration.ofSeconds(10)).ignoreExceptions().untilAsserted(() -> {
      try (Lease again = client.lock(key + "/a").acquire(Duration.ofSeconds(2))) {
        assertThat(again.isHeld()).isTrue();
        long lease = inspector.holderLease(key + "/a");
        assertThat(lease).as("the new entry's lease").isNotEqualTo(revoked);
        assertThat(inspector.secondsLeft(lease)).as("seconds left on the new lease").isPositive();
      }
    });
  }

  /** etcd#11456: a waiter must not be granted the lock on a lease that died while it waited. */
  @Test
  @Timeout(30)
  void aWaiterWhoseLeaseWasRevokedIsNotGrantedOnTheDeadLease() throws Exception {
    Lease held = client().lock(key).acquire(LONG_WAIT);
    CompletableFuture<Lease> waiting = client().lock(key).acquireAsync(LockOptions.defaults().withWaitTime(Duration.ofSeconds(20)));
    await().until(() -> inspector.count(key) == 2);
    long waiterLease = inspector.entries(key).get(1).getLease();

    inspector.revoke(waiterLease);
    await().during(A_WHILE).atMost(Duration.ofSeconds(3)).until(() -> !waiting.isDone());
    held.close();

    try (Lease granted = waiting.get(15, TimeUnit.SECONDS)) {
      List<KeyValue> entries = inspector.entries(key);
      assertThat(entries).as("entries while the waiter holds").hasSize(1);
      assertThat(entries.get(0).getLease()).as("the holder's lease").isNotEqualTo(waiterLease);
      assertThat(inspector.secondsLeft(entries.get(0).getLease())).as("seconds left on the holder's lease").isPositive();
      assertThat(EtcdInspector.owner(entries.get(0))).isEqualTo(granted.ownerId());
      assertThat(granted.fencingToken()).isEqualTo(entries.get(0).getCreateRevision());
      assertThat(client().lock(key).tryAcquire()).as("another client's tryAcquire").isEmpty();
    }
    assertThat(inspector.count(key)).isZero();
  }

  // The queue

  @Test
  @Timeout(30)
  void aWaiterWatchesOnlyItsPredecessorAndReleasesHandTheLockOnInOrder() throws Exception {
    EtcdMetrics metrics = new EtcdMetrics(etcd.endpoint());
    long watchersBefore = metrics.watchers();
    Lease holder = client().lock(key).acquire(LONG_WAIT);
    List<LockClient> waiterClients = new ArrayList<>();
    List<CompletableFuture<Lease>> waiters = new ArrayList<>();
    List<Integer> grants = new CopyOnWriteArrayList<>();
    for (int i = 0; i < 3; i++) {
      LockClient waiter = client();
      waiterClients.add(waiter);
      int index = i;
      CompletableFuture<Lease> pending = waiter.lock(key).acquireAsync(LockOptions.defaults().withWaitTime(Duration.ofSeconds(20)));
      pending.thenRun(() -> grants.add(index));
      waiters.add(pending);
      int queued = i + 2;
      await().until(() -> inspector.count(key) == queued);
    }
    List<KeyValue> queue = inspector.entries(key);
    assertThat(EtcdInspector.owner(queue.get(0))).isEqualTo(holder.ownerId());
    // One watcher per waiter, on its predecessor; and no waiter busy-loops while it waits.
    await("one watcher per waiter").atMost(Duration.ofSeconds(5)).until(() -> metrics.watchers() == watchersBefore + 3);
    long txns = metrics.calls("Txn");
    await("no transactions while the queue waits").during(A_WHILE).atMost(Duration.ofSeconds(3))
        .until(() -> metrics.calls("Txn") == txns);

    // The middle waiter goes away: its entry with it; the others keep waiting.
    waiterClients.get(1).close();
    await().until(() -> inspector.count(key) == 3);
    assertThat(inspector.entries(key)).extracting(KeyValue::getCreateRevision).containsExactly(
        queue.get(0).getCreateRevision(), queue.get(1).getCreateRevision(), queue.get(3).getCreateRevision());
    await("the other waiters still waiting").during(A_WHILE).atMost(Duration.ofSeconds(3))
        .until(() -> !waiters.get(0).isDone() && !waiters.get(2).isDone());
    await("the last waiter watching the first").atMost(Duration.ofSeconds(5))
        .until(() -> metrics.watchers() == watchersBefore + 2);
    assertThat(holder.isHeld()).isTrue();

    // Each release hands the lock to the next in the queue, and only to it.
    holder.close();
    Lease first = waiters.get(0).get(10, TimeUnit.SECONDS);
    assertThat(first.fencingToken()).isEqualTo(queue.get(1).getCreateRevision());
    await("the last waiter still waiting").during(A_WHILE).atMost(Duration.ofSeconds(3))
        .until(() -> !waiters.get(2).isDone());
    assertThat(metrics.watchers()).as("watchers once the first waiter holds").isEqualTo(watchersBefore + 1);
    first.close();
    Lease last = waiters.get(2).get(10, TimeUnit.SECONDS);
    assertThat(last.fencingToken()).isEqualTo(queue.get(3).getCreateRevision());
    last.close();

    assertThat(grants).containsExactly(0, 2);
    assertThat(waiters.get(1)).isCompletedExceptionally();
    assertThat(inspector.count(key)).isZero();
    await("no watcher left").atMost(Duration.ofSeconds(5)).until(() -> metrics.watchers() == watchersBefore);
  }

  @Test
  @Timeout(30)
  void waitsShareOneWatchStreamPerClientAndLeaveNoWatcherBehind() throws Exception {
    EtcdMetrics metrics = new EtcdMetrics(etcd.endpoint());
    LockClient holderClient = client();
    LockClient waiterClient = client();
    long watchersBefore = metrics.watchers();
    long streamsBefore = metrics.watchStreams();
    for (int round = 0; round < 10; round++) {
      Lease holder = holderClient.lock(key).acquire(LONG_WAIT);
      CompletableFuture<Lease> waiter = waiterClient.lock(key).acquireAsync(LockOptions.defaults().withWaitTime(LONG_WAIT));
      await("the waiter watching").atMost(Duration.ofSeconds(5)).until(() -> metrics.watchers() == watchersBefore + 1);
      holder.close();
      waiter.get(10, TimeUnit.SECONDS).close();
      await("no watcher left").atMost(Duration.ofSeconds(5)).until(() -> metrics.watchers() == watchersBefore);
    }
    assertThat(metrics.watchStreams()).as("watch streams after ten waits").isLessThanOrEqualTo(streamsBefore + 1);
    assertThat(inspector.count(key)).isZero();
  }

  @Test
  @Timeout(60)
  void theRenewalsOfManyLocksGoOutInAFewRequestsAndNoneFallsBehind() throws Exception {
    EtcdMetrics metrics = new EtcdMetrics(etcd.endpoint());
    // A 6 s lease: the locks' ttl is 2 s, renewed every third of it. With a 1 s ttl, 2,000 locks taken one after
    // the other by a JVM still compiling its code fell behind now and then on a 2-core CI machine.
    LockClient client = client(EtcdLockClient.builder().endpoints(etcd.endpoint()).sessionTimeout(Duration.ofSeconds(6)));
    AtomicInteger renewals = new AtomicInteger();
    client.observe(new LockObserver() {
      @Override
      public void renewed(Lease renewed, Primitive primitive, boolean succeeded) {
        if (succeeded) {
          renewals.incrementAndGet();
        }
      }
    });
    RecordingLostListener lost = new RecordingLostListener();
    int locks = 2_000;
    List<Lease> leases = new ArrayList<>();
    for (int i = 0; i < locks; i++) {
      Lease lease = client.lock(key + "/" + i).acquire(LONG_WAIT);
      lease.onLost(lost);
      leases.add(lease);
    }
    long requestsBefore = requests(metrics);
    int renewalsBefore = renewals.get();

    await("five renewals of every lock").atMost(Duration.ofSeconds(30))
        .until(() -> renewals.get() - renewalsBefore >= 5 * locks);

    long requests = requests(metrics) - requestsBefore;
    assertThat(lost.reasons()).as("locks lost").isEmpty();
    assertThat(requests).as("reads and lease questions for %d renewals", renewals.get() - renewalsBefore)
        .isLessThan(locks / 2);
    leases.forEach(Lease::close);
  }

  private static long requests(EtcdMetrics metrics) {
    return metrics.calls("Txn") + metrics.calls("Range") + metrics.leaseCalls("LeaseTimeToLive");
  }

  @Test
  @Timeout(30)
  void statusShowsTheHolderItsTokenItsTtlAndTheQueue() throws Exception {
    LockClient observer = client();
    assertThat(observer.status(key)).satisfies(status -> {
      assertThat(status.isHeld()).isFalse();
      assertThat(status.waiters()).isZero();
    });
    Lease held = client().lock(key).acquire(LONG_WAIT);
    CompletableFuture<Lease> first = client().lock(key).acquireAsync(LockOptions.defaults().withWaitTime(Duration.ofSeconds(20)));
    CompletableFuture<Lease> second = client().lock(key).acquireAsync(LockOptions.defaults().withWaitTime(Duration.ofSeconds(20)));
    await().until(() -> inspector.count(key) == 3);

    LockStatus status = observer.status(key);
    assertThat(status.isHeld()).isTrue();
    assertThat(status.ownerId()).contains(held.ownerId());
    assertThat(status.fencingToken()).hasValue(held.fencingToken());
    assertThat(status.remainingTtl()).hasValueSatisfying(ttl -> assertThat(ttl).isPositive().isLessThanOrEqualTo(SESSION_TIMEOUT));
    assertThat(status.waiters()).isEqualTo(2);

    held.close();
    first.get(10, TimeUnit.SECONDS).close();
    second.get(10, TimeUnit.SECONDS).close();
    assertThat(observer.status(key).isHeld()).isFalse();
  }

  @Test
  @Timeout(30)
  void aClientQueuesWithOneEntryKeyPerLockSoEtcdsIndexDoesNotGrowWithEveryAcquisition() throws Exception {
    LockClient client = client();
    List<String> entryKeys = new ArrayList<>();
    List<Long> tokens = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      try (Lease lease = client.lock(key).acquire(LONG_WAIT)) {
        KeyValue entry = inspector.entries(key).get(0);
        entryKeys.add(EtcdInspector.text(entry.getKey()));
        assertThat(EtcdInspector.owner(entry)).isEqualTo(lease.ownerId());
        tokens.add(lease.fencingToken());
      }
    }
    assertThat(entryKeys).as("entry keys of three acquisitions").containsOnly(entryKeys.get(0));
    assertThat(tokens).as("tokens").isSorted().doesNotHaveDuplicates();
  }

  @Test
  @Timeout(30)
  void aReleaseIsOnePlainDeleteOfTheEntry() throws Exception {
    EtcdMetrics metrics = new EtcdMetrics(etcd.endpoint());
    LockClient client = client();
    Lease lease = client.lock(key).acquire(LONG_WAIT);
    long txns = metrics.calls("Txn");
    long deletes = metrics.calls("DeleteRange");

    lease.close();

    assertThat(metrics.calls("DeleteRange") - deletes).isEqualTo(1);
    assertThat(metrics.calls("Txn") - txns).as("transactions").isZero();
    assertThat(inspector.count(key)).isZero();
  }

  /**
   * An acquire's transaction reads the key's queue only if an entry that could conflict with ours is there: alone, it
   * is a put, and holds; beside another client's read lock, a read lock's reads nothing either; behind other entries,
   * a lock's reads the oldest.
   */
  @Test
  @Timeout(30)
  void anAcquireReadsTheQueueOnlyWhenAConflictingEntryIsThere() {
    EtcdKeys keys = new EtcdKeys(EtcdLockClient.DEFAULT_NAMESPACE, false);
    try (EtcdBackend backend = EtcdQueueRuleTest.connect(etcd.endpoint())) {
      long lease = backend.leaseId();
      ByteSequence owner = EtcdKeys.bytes("owner");
      RuleReads exclusive = new RuleReads(keys, key, QueueRule.EXCLUSIVE);

      TxnResponse alone = backend.await(backend.putAndRead(keys.entry(key, lease), owner, lease, exclusive), "alone");
      assertThat(alone.getGetResponses()).as("reads when alone").isEmpty();
      assertThat(alone.getPutResponses().get(0).hasPrevKv()).isFalse();
      inspector.deleteEntries(key);

      long other = inspector.grantLease(30);
      try {
        inspector.putEntry(key, "~s/" + Long.toHexString(other) + "/0", "a reader", other);
        RuleReads shared = new RuleReads(keys, key, QueueRule.SHARED);
        TxnResponse besideReader = backend.await(
            backend.putAndRead(keys.entry(key, lease, QueueRule.SHARED, 0), owner, lease, shared), "beside a reader");
        assertThat(besideReader.getGetResponses()).as("a reader's reads beside another reader").isEmpty();

        inspector.putEntry(key, Long.toHexString(other), "a writer", other);
        TxnResponse behind = backend.await(backend.putAndRead(keys.entry(key, lease), owner, lease, exclusive),
            "behind the others");
        assertThat(behind.getGetResponses()).as("reads behind the others").hasSize(1);
        assertThat(behind.getGetResponses().get(0).getKvs()).extracting(KeyValue::getCreateRevision)
            .as("the oldest entry").containsExactly(inspector.entries(key).get(0).getCreateRevision());
      } finally {
        inspector.revoke(other);
        inspector.deleteEntries(key);
      }
    }
  }

  /**
   * A plain delete that etcd applied but whose answer did not come may be applied again later, as far as the client
   * knows: the next acquisition of the key takes another name, which that delete cannot remove.
   */
  @Test
  @Timeout(60)
  void aReleaseWhoseDeleteWentUnansweredRetiresItsEntryName() throws Exception {
    try (TcpProxy proxy = TcpProxy.start("127.0.0.1", etcd.server().clientPort())) {
      LockClient client = client(EtcdLockClient.builder().endpoints("http://" + proxy.address())
          .sessionTimeout(LONG_WAIT).commandTimeout(Duration.ofSeconds(1)));
      Lease first = client.lock(key).acquire(LONG_WAIT);
      String firstName = EtcdInspector.text(inspector.entries(key).get(0).getKey());
      proxy.delayReplies();
      try {
        first.close(); // etcd deletes the entry; the answer comes too late, and the release is retried later
        assertThat(inspector.count(key)).isZero();
      } finally {
        proxy.deliverReplies();
      }

      try (Lease next = client.lock(key).acquire(LONG_WAIT)) {
        assertThat(EtcdInspector.text(inspector.entries(key).get(0).getKey())).isEqualTo(firstName + "/1");
        assertThat(next.fencingToken()).isGreaterThan(first.fencingToken());
      }
      assertThat(inspector.count(key)).isZero();
    }
  }

  @Test
  @Timeout(30)
  void anEntryThatAnEarlierAcquisitionOfTheClientLeftBehindIsRemovedAndTheNextGetsANewToken() throws Exception {
    LockClient client = client();
    long leaseId;
    long firstToken;
    try (Lease first = client.lock(key).acquire(LONG_WAIT)) {
      leaseId = inspector.holderLease(key);
      firstToken = first.fencingToken();
    }
    // As if the release of an earlier acquisition had not reached etcd: its entry, its owner id.
    inspector.putEntry(key, Long.toHexString(leaseId), client.clientId() + ":stale", leaseId);
    long staleRevision = inspector.entries(key).get(0).getCreateRevision();

    try (Lease next = client.lock(key).acquire(LONG_WAIT)) {
      List<KeyValue> entries = inspector.entries(key);
      assertThat(entries).hasSize(1);
      assertThat(EtcdInspector.owner(entries.get(0))).isEqualTo(next.ownerId());
      assertThat(next.fencingToken()).isGreaterThan(staleRevision).isGreaterThan(firstToken);
    }
    assertThat(inspector.count(key)).isZero();
  }

  @Test
  @Timeout(30)
  void entriesLiveUnderTheNamespaceBoundToTheClientsLease() throws Exception {
    LockClient client = client(EtcdLockClient.builder().endpoints(etcd.endpoint()).sessionTimeout(SESSION_TIMEOUT).namespace("/apps/billing/"));
    try (EtcdInspector billing = new EtcdInspector(etcd.endpoint(), "/apps/billing/")) {
      try (Lease lease = client.lock(key).acquire(LONG_WAIT)) {
        List<KeyValue> entries = billing.entries(key);
        assertThat(entries).hasSize(1);
        KeyValue entry = entries.get(0);
        assertThat(EtcdInspector.text(entry.getKey()))
            .isEqualTo("/apps/billing/" + key + "\u0000" + Long.toHexString(entry.getLease()));
        assertThat(EtcdInspector.owner(entry)).isEqualTo(lease.ownerId());
        assertThat(lease.fencingToken()).isEqualTo(entry.getCreateRevision());
        assertThat(inspector.count(key)).as("entries under the default namespace").isZero();
      }
      assertThat(billing.count(key)).isZero();
    }
  }

  // Restarts and outages

  @Test
  @Timeout(60)
  void aWaiterRidesOutARestartAndGetsTheLockWhenTheHolderReleases() throws Exception {
    // Leases of 10 s outlive the restart; etcd keeps them (and the entries) across it.
    EtcdLockClient.Builder builder = EtcdLockClient.builder().endpoints(etcd.endpoint()).sessionTimeout(Duration.ofSeconds(10));
    LockClient holderClient = client(builder);
    Lease held = holderClient.lock(key).acquire(LONG_WAIT);
    RecordingLostListener lost = new RecordingLostListener();
    held.onLost(lost);
    CompletableFuture<Lease> waiting = client(builder).lock(key)
        .acquireAsync(LockOptions.defaults().withWaitTime(Duration.ofSeconds(20)));
    await().until(() -> inspector.count(key) == 2);

    etcd.server().restart();

    // Both clients are back: the entries are still there, nobody was told of a loss, the waiter still waits.
    await().atMost(Duration.ofSeconds(10)).ignoreExceptions().until(() -> holderClient.status(key).isHeld());
    assertThat(holderClient.status(key).fencingToken()).hasValue(held.fencingToken());
    await("the waiter still waiting and the holder still holding").during(A_WHILE).atMost(Duration.ofSeconds(3))
        .until(() -> !waiting.isDone() && held.isHeld());
    assertThat(inspector.count(key)).isEqualTo(2);
    assertThat(lost.reasons()).isEmpty();

    // Woken by its watch if jetcd resumed it after the restart (it may not: jetcd#1261), else by its
    // fallback re-check a session timeout (10 s) later: a lost watch costs at most that, never a hang.
    held.close();
    try (Lease next = waiting.get(15, TimeUnit.SECONDS)) {
      assertThat(held.isHeld()).isFalse();
      assertThat(next.isHeld()).isTrue();
      assertThat(next.fencingToken()).isGreaterThan(held.fencingToken());
      assertThat(inspector.count(key)).isEqualTo(1);
    }
    assertThat(inspector.count(key)).isZero();
    assertThat(lost.reasons()).isEmpty();
  }

  @Test
  @Timeout(60)
  void anAcquireWhileEtcdIsDownFailsWithinItsWaitTimeAndWorksOnceItIsBack() {
    DistributedLock lock = client().lock(key);
    etcd.server().stop();
    try {
      long start = System.nanoTime();
      assertThatThrownBy(() -> lock.acquire(Duration.ofMillis(500)))
          .isInstanceOf(BackendUnavailableException.class)
          .hasMessageContaining(key)
          .hasMessageContaining("etcd");
      assertThat(Duration.ofNanos(System.nanoTime() - start)).as("time to fail a 500 ms acquire")
          .isLessThan(Duration.ofMillis(2_000));
    } finally {
      etcd.server().start();
    }
    // The restarted etcd is empty: the client's lease is gone, and it must grant itself a new one.
    await().atMost(Duration.ofSeconds(15)).ignoreExceptions().untilAsserted(() -> {
      try (Lease lease = lock.acquire(Duration.ofSeconds(1))) {
        assertThat(lease.isHeld()).isTrue();
        assertThat(inspector.secondsLeft(inspector.holderLease(key))).isPositive();
      }
    });
  }

  // Settings

  @Test
  @Timeout(30)
  void badSettingsAreRejectedWithTheValue() {
    assertThatThrownBy(() -> EtcdLockClient.connect("redis://x")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("redis://x");
    assertThatThrownBy(() -> EtcdLockClient.builder().endpoints("http://127.0.0.1:2379,redis://x"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("redis://x");
    assertThatThrownBy(() -> EtcdLockClient.builder().endpoints("http://127.0.0.1"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("http://127.0.0.1");
    for (String blank : new String[] {null, "", "  "}) {
      assertThatThrownBy(() -> EtcdLockClient.builder().endpoints(blank)).as("endpoints '%s'", blank)
          .isInstanceOf(IllegalArgumentException.class);
    }
    assertThatThrownBy(() -> EtcdLockClient.builder().sessionTimeout(Duration.ofMillis(1500)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("sessionTimeout").hasMessageContaining("1.5");
    assertThatThrownBy(() -> EtcdLockClient.builder().sessionTimeout(Duration.ofSeconds(2)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("sessionTimeout").hasMessageContaining("PT2S");
    assertThatThrownBy(() -> EtcdLockClient.builder().sessionTimeout(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("sessionTimeout");
    assertThatThrownBy(() -> EtcdLockClient.builder().sessionTimeout(null))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("sessionTimeout");
    assertThatThrownBy(() -> EtcdLockClient.builder().commandTimeout(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("commandTimeout");
    assertThatThrownBy(() -> EtcdLockClient.builder().namespace(""))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> EtcdLockClient.builder().namespace("/" + "n".repeat(1 << 20)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("namespace").hasMessageContaining("128");
    assertThatThrownBy(() -> EtcdLockClient.builder().credentials(" ", "pw"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> EtcdLockClient.builder().defaultOptions(null))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> EtcdLockClient.builder().connect()).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("endpoints");
  }

  /** A namespace without its trailing slash used to run into the key: "/ns" and "2/k" were "/ns2/" and "k". */
  @Test
  @Timeout(30)
  void namespacesDoNotRunIntoTheirKeys() throws Exception {
    LockClient ns = client(EtcdLockClient.builder().endpoints(etcd.endpoint()).sessionTimeout(SESSION_TIMEOUT).namespace("/ns"));
    LockClient ns2 = client(EtcdLockClient.builder().endpoints(etcd.endpoint()).sessionTimeout(SESSION_TIMEOUT).namespace("/ns2/"));
    try (Lease held = ns.lock("2/k").acquire(LONG_WAIT)) {
      Optional<Lease> other = ns2.lock("k").tryAcquire();
      assertThat(other).as("the lock 'k' of /ns2/, another lock than '2/k' of /ns").isPresent();
      other.get().close();
    }
  }

  @Test
  @Timeout(30)
  void etcdSchemeIsReadAsHttp() throws Exception {
    String endpoint = "etcd://127.0.0.1:" + etcd.server().clientPort();
    try (Lease lease = client(EtcdLockClient.builder().endpoints(endpoint).sessionTimeout(SESSION_TIMEOUT)).lock(key).acquire(LONG_WAIT)) {
      assertThat(inspector.count(key)).isEqualTo(1);
    }
  }

  @Test
  @Timeout(30)
  void anUnreachableEndpointFailsTheConnectAndLeavesNoThreads() throws IOException {
    int closedPort;
    try (ServerSocket socket = new ServerSocket(0)) {
      closedPort = socket.getLocalPort();
    }
    Set<Thread> before = Set.copyOf(Thread.getAllStackTraces().keySet());
    long start = System.nanoTime();
    assertThatThrownBy(() -> EtcdLockClient.builder().endpoints("http://127.0.0.1:" + closedPort)
        .commandTimeout(Duration.ofSeconds(1)).connect())
        .isInstanceOf(BackendUnavailableException.class)
        .hasMessageContaining("127.0.0.1:" + closedPort);
    assertThat(Duration.ofNanos(System.nanoTime() - start)).as("time to fail the connect").isLessThan(Duration.ofSeconds(5));
    awaitNoThreadLeftBehind(before, "the failed connect");
  }

  private static void awaitNoThreadLeftBehind(Set<Thread> before, String by) {
    try {
      await().pollInSameThread().atMost(Duration.ofSeconds(10)).until(() -> leftBehind(before).isEmpty());
    } catch (ConditionTimeoutException e) {
      throw new AssertionError("Threads left behind by " + by + ": " + leftBehind(before), e);
    }
  }

  /** Whether a thread with this stack waits in a native poll of its channels: an event loop that has not ended. */
  private static boolean polls(StackTraceElement[] stack) {
    return Arrays.stream(stack).anyMatch(frame -> frame.getMethodName().startsWith("epoll")
        || frame.getClassName().equals("sun.nio.ch.EPoll") || frame.getMethodName().equals("select"));
  }

  /** Threads started since {@code before} that would keep the JVM alive, or that are Baton's. */
  private static List<String> leftBehind(Set<Thread> before) {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.isAlive() && !before.contains(t))
        .filter(t -> !t.isDaemon() || t.getName().startsWith("baton-"))
        .filter(t -> !t.getName().startsWith("awaitility"))
        .map(t -> t.getName() + (t.isDaemon() ? " (daemon)" : ""))
        .sorted()
        .toList();
  }

  @Test
  @Timeout(30)
  void closingTheClientRevokesItsLeaseAndStopsItsThreads() throws Exception {
    assertThat(inspector.count(key)).isZero(); // the inspector's own threads run before the snapshot
    Set<Thread> before = Set.copyOf(Thread.getAllStackTraces().keySet());
    for (int round = 0; round < 5; round++) {
      LockClient client = EtcdLockClient.builder().endpoints(etcd.endpoint()).sessionTimeout(Duration.ofSeconds(30)).connect();
      Optional<Lease> lease = client.lock(key).tryAcquire();
      assertThat(lease).isPresent();
      long leaseId = inspector.holderLease(key);
      client.close();
      // At once: an event loop still polling when the JVM exits holds the exit back by 300 ms (baton exec, every
      // other run, before close waited for them). One that has left its loop may still be ending, on a loaded
      // machine, for a while: that costs the exit nothing.
      assertThat(Thread.getAllStackTraces().entrySet()).as("jetcd's event loops polling at the return of close()")
          .noneMatch(thread -> !before.contains(thread.getKey())
              && thread.getKey().getName().startsWith("vert.x-eventloop") && polls(thread.getValue()));
      assertThat(inspector.secondsLeft(leaseId)).as("seconds left on the closed client's lease").isNegative();
      assertThat(inspector.count(key)).isZero();
    }
    awaitNoThreadLeftBehind(before, "the closed clients");
  }
}
