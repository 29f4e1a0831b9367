package dev.baton.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.BackendUnavailableException;
import dev.baton.Lease;
import dev.baton.LockClient;
import dev.baton.LockOptions;
import dev.baton.LockStatus;
import dev.baton.LostReason;
import dev.baton.embedded.EmbeddedZooKeeper;
import dev.baton.servers.TcpProxy;
import dev.baton.spi.ClientFactory;
import dev.baton.testkit.BackgroundCall;
import dev.baton.testkit.EmbeddedZooKeeperExtension;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/** What only ZooKeeper does to a lock: sessions, watches, lost replies, paths, chroots and ACLs. */
@Timeout(30)
class ZooKeeperBackendTest {
  @RegisterExtension
  static final EmbeddedZooKeeperExtension zookeeper = new EmbeddedZooKeeperExtension();

  private static final LockOptions NON_FAIR = LockOptions.defaults().toBuilder().fair(false).build();

  private static ZkInspector inspector;
  private final List<AutoCloseable> resources = new ArrayList<>();
  private String key;

  @BeforeAll
  static void inspect() {
    inspector = new ZkInspector(zookeeper.connectString());
  }

  @AfterAll
  static void stopInspecting() throws InterruptedException {
    inspector.close();
  }

  @BeforeEach
  void chooseKey(TestInfo test) {
    key = "zk/" + test.getTestMethod().orElseThrow().getName() + "/" + Long.toHexString(ThreadLocalRandom.current().nextLong());
  }

  @AfterEach
  void closeResources() throws Exception {
    for (AutoCloseable resource : resources) {
      resource.close();
    }
  }

  private LockClient client(ZooKeeperLockClient.Builder builder) {
    LockClient client = builder.connect();
    resources.add(client);
    return client;
  }

  private LockClient client() {
    return client(ZooKeeperLockClient.builder().connectString(zookeeper.connectString()).sessionTimeout(Duration.ofSeconds(2)));
  }

  @Test
  void aReleaseWakesOnlyTheNextWaiterAndADeadPredecessorPassesItsTurnOn() throws Exception {
    String lockPath = ZkInspector.lockPath(key);
    Lease holder = client().lock(key).acquire();
    List<LockClient> waiterClients = new ArrayList<>();
    List<CompletableFuture<Lease>> waiters = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      LockClient waiter = client();
      waiterClients.add(waiter);
      waiters.add(waiter.lock(key).acquireAsync());
      int queued = i + 2;
      await().until(() -> inspector.lockNodes(key).size() == queued);
    }
    List<String> queue = inspector.lockNodes(key);
    // Each waiter watches its predecessor only: one watcher on each node but the last.
    await().until(() -> zookeeper.server().dataWatches(lockPath).size() == 3);
    assertThat(zookeeper.server().dataWatches(lockPath))
        .containsOnlyKeys(queue.subList(0, 3).stream().map(n -> lockPath + "/" + n).toList())
        .allSatisfy((node, watchers) -> assertThat(watchers).isEqualTo(1));

    // The middle waiter dies: the last one now watches the first waiter, and nobody else moved.
    waiterClients.get(1).close();
    await().until(() -> zookeeper.server().dataWatches(lockPath).keySet()
        .equals(java.util.Set.of(lockPath + "/" + queue.get(0), lockPath + "/" + queue.get(1))));
    assertThat(inspector.lockNodes(key)).containsExactly(queue.get(0), queue.get(1), queue.get(3));
    assertThat(waiters.get(0)).isNotDone();
    assertThat(waiters.get(2)).isNotDone();

    // A release wakes exactly the next waiter; the one behind it keeps its watch.
    holder.close();
    Lease first = waiters.get(0).get(10, TimeUnit.SECONDS);
    assertThat(waiters.get(2)).isNotDone();
    assertThat(zookeeper.server().dataWatches(lockPath)).containsOnlyKeys(lockPath + "/" + queue.get(1));
    first.close();
    waiters.get(2).get(10, TimeUnit.SECONDS).close();
    assertThat(inspector.lockNodes(key)).isEmpty();
  }

  /** How a holder dies without releasing its lock. */
  enum Death {
    /** Its process exits with its ZooKeeper session closed: the server deletes its node at once. */
    SESSION_CLOSED(ObservedClient::closeSessionAndStop),
    /** Its process crashes: the server deletes its node when its session times out. */
    CRASHED(ObservedClient::crash);

    private final Consumer<ObservedClient> kill;

    Death(Consumer<ObservedClient> kill) {
      this.kill = kill;
    }
  }

  /**
   * Five waiters on clients of their own queue behind a holder that dies; then each releases in turn. Counted on
   * the waiters' side, the death and each release wake exactly one waiter, the next in line, which takes the lock,
   * and the others get no watch event. (A deletion's watch events leave the server together, before the woken
   * waiter's listing is answered; and after the last release every waiter has had exactly one.) The waiters'
   * sessions are the server's longest, so that none re-reads the queue by itself, as a waiter does once per
   * session timeout, while the test runs.
   */
  @ParameterizedTest
  @EnumSource(Death.class)
  void aDeadHolderAndEachReleaseWakeOnlyTheNextWaiter(Death death) throws Exception {
    int waiterCount = 5;
    String lockPath = ZkInspector.lockPath(key);
    ObservedClient holder = observedClient(Duration.ofSeconds(1));
    Lease held = holder.client().lock(key).acquire();
    List<ObservedClient> waiters = new ArrayList<>();
    List<CompletableFuture<Lease>> turns = new ArrayList<>();
    for (int i = 0; i < waiterCount; i++) {
      ObservedClient waiter = observedClient(EmbeddedZooKeeper.MAX_SESSION_TIMEOUT);
      waiters.add(waiter);
      turns.add(waiter.client().lock(key).acquireAsync());
      int queued = i + 2;
      await().until(() -> inspector.lockNodes(key).size() == queued);
    }
    await("a watch set by each waiter").until(() -> zookeeper.server().dataWatches(lockPath).values().stream()
        .mapToInt(Integer::intValue).sum() == waiterCount);
    assertThat(wakeUps(waiters)).as("wake-ups while the holder lives").containsOnly(0);

    death.kill.accept(holder);
    long token = held.fencingToken();
    for (int next = 0; next < waiterCount; next++) {
      Lease lease = turns.get(next).get(10, TimeUnit.SECONDS);
      int woken = next + 1;
      assertThat(wakeUps(waiters)).as("wake-ups of each waiter once waiter %d holds the lock", next)
          .containsExactlyElementsOf(IntStream.range(0, waiterCount).mapToObj(i -> i < woken ? 1 : 0).toList());
      assertThat(turns.subList(woken, waiterCount)).as("the waiters behind waiter %d", next)
          .noneMatch(CompletableFuture::isDone);
      assertThat(lease.fencingToken()).isGreaterThan(token);
      token = lease.fencingToken();
      lease.close();
    }
    await().until(() -> inspector.lockNodes(key).isEmpty());
    assertThat(wakeUps(waiters)).as("wake-ups of each waiter in the end").containsOnly(1);
  }

  private ObservedClient observedClient(Duration sessionTimeout) {
    ObservedClient client = ObservedClient.connect(zookeeper.connectString(), sessionTimeout);
    resources.add(client);
    return client;
  }

  private static List<Integer> wakeUps(List<ObservedClient> clients) {
    return clients.stream().map(ObservedClient::wakeUps).toList();
  }

  /**
   * The Lock methods' unlock does not wait for the delete's answer (LockBackend.releaseInOrder): a node removed
   * behind the holder's back is learnt of a round trip later, and the lease ends LOST then, which observers hear. A
   * renewal may find the loss first, and unlock then throws as before; observers hear it either way.
   */
  @Test
  void anUnlockOfARemovedNodeEndsItsLeaseLostWhenTheAnswerComes() throws Exception {
    LockClient client = client();
    List<String> ended = new CopyOnWriteArrayList<>();
    client.observe(new dev.baton.LockObserver() {
      @Override
      public void ended(Lease lease, dev.baton.Primitive primitive, Duration heldFor, LostReason reason) {
        ended.add(String.valueOf(reason));
      }
    });
    java.util.concurrent.locks.Lock lock = client.lock(key);
    lock.lock();
    inspector.deleteLockNodes(key);
    try {
      lock.unlock();
    } catch (dev.baton.LockLostException foundByARenewal) {
      // The watchdog's renewal saw the node gone before the unlock: the release sent nothing.
    }
    await().untilAsserted(() -> assertThat(ended).containsExactly(LostReason.ENTRY_REMOVED.name()));
    assertThat(client.lock(key).tryLock()).as("the lock, free at the store").isTrue();
  }

  @Test
  void statusCountsTheQueue() throws Exception {
    Lease held = client().lock(key).acquire();
    CompletableFuture<Lease> first = client().lock(key).acquireAsync();
    CompletableFuture<Lease> second = client().lock(key).acquireAsync();
    await().until(() -> inspector.lockNodes(key).size() == 3);
    assertThat(client().status(key)).satisfies(status -> {
      assertThat(status.ownerId()).contains(held.ownerId());
      assertThat(status.fencingToken()).hasValue(held.fencingToken());
      assertThat(status.remainingTtl()).isEmpty();
      assertThat(status.waiters()).isEqualTo(2);
    });
    held.close();
    first.get(10, TimeUnit.SECONDS).close();
    second.get(10, TimeUnit.SECONDS).close();
  }

  /** A non-fair holder is the head of the same queue: the status names it, and counts the fair waiters behind it. */
  @Test
  void statusNamesANonFairHolderAndCountsTheFairWaiters() throws Exception {
    Lease held = client().lock(key, NON_FAIR).acquire();
    CompletableFuture<Lease> first = client().lock(key).acquireAsync();
    CompletableFuture<Lease> second = client().lock(key).acquireAsync();
    await().until(() -> inspector.lockNodes(key).size() == 3);
    assertThat(client().status(key)).satisfies(status -> {
      assertThat(status.ownerId()).contains(held.ownerId());
      assertThat(status.fencingToken()).hasValue(held.fencingToken());
      assertThat(status.waiters()).isEqualTo(2);
    });
    held.close();
    first.get(10, TimeUnit.SECONDS).close();
    second.get(10, TimeUnit.SECONDS).close();
  }

  /**
   * A non-fair waiter keeps no node while it waits, and watches the holder, so it does not hold up a fair one. Its
   * session is the server's longest, so that it does not look at the queue again by itself while the test runs.
   */
  @Test
  void aNonFairWaiterKeepsNoPlaceInLine() throws Exception {
    String lockPath = ZkInspector.lockPath(key);
    Lease held = client().lock(key).acquire();
    LockClient waiter = client(ZooKeeperLockClient.builder().connectString(zookeeper.connectString())
        .sessionTimeout(EmbeddedZooKeeper.MAX_SESSION_TIMEOUT));
    CompletableFuture<Lease> nonFair = waiter.lock(key, NON_FAIR).acquireAsync();
    await().until(() -> zookeeper.server().dataWatches(lockPath).equals(Map.of(lockPath + "/" + inspector.lockNodes(key).get(0), 1)));
    assertThat(inspector.lockNodes(key)).hasSize(1);

    held.close();
    try (Lease lease = nonFair.get(10, TimeUnit.SECONDS)) {
      assertThat(lease.fencingToken()).isGreaterThan(held.fencingToken());
      assertThat(inspector.lockNodes(key)).hasSize(1);
    }
    assertThat(inspector.lockNodes(key)).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void aCreateWhoseReplyIsLostLeavesNoOrphanNode(boolean fair) throws Exception {
    TcpProxy proxy = TcpProxy.start("127.0.0.1", zookeeper.server().port());
    resources.add(proxy);
    LockClient client = client(ZooKeeperLockClient.builder().connectString(proxy.address()).sessionTimeout(Duration.ofSeconds(5)));
    inspector.createPath(key);
    proxy.holdReplies();
    CompletableFuture<Lease> acquiring = client.lock(key).acquireAsync(LockOptions.defaults().toBuilder()
        .waitTime(Duration.ofSeconds(15)).fair(fair).build());
    await().until(() -> inspector.lockNodes(key).size() == 1);

    proxy.dropConnections();
    proxy.resumeReplies();

    try (Lease lease = acquiring.get(15, TimeUnit.SECONDS)) {
      assertThat(lease.isHeld()).isTrue();
      assertThat(inspector.lockNodes(key)).hasSize(1);
    }
    assertThat(inspector.lockNodes(key)).isEmpty();
  }

  @Test
  void anExpiredSessionReportsItsLeasesLostAndFreesTheLock() throws Exception {
    // The client learns of the expiry only when it reconnects, up to a second after the server drops it; a
    // long session keeps the lease valid well past that, so the watchdog does not give it up first for
    // want of renewals (which it would report as RENEWAL_FAILED).
    LockClient client = client(ZooKeeperLockClient.builder().connectString(zookeeper.connectString())
        .sessionTimeout(EmbeddedZooKeeper.MAX_SESSION_TIMEOUT));
    Lease lease = client.lock(key).acquire();
    List<LostReason> reasons = new CopyOnWriteArrayList<>();
    lease.onLost(reasons::add);

    zookeeper.server().expireSession(inspector.ownerSession(key));

    await().until(() -> !reasons.isEmpty());
    assertThat(reasons).containsExactly(LostReason.SESSION_EXPIRED);
    assertThat(lease.isHeld()).isFalse();
    try (Lease next = client().lock(key).acquire(Duration.ofSeconds(5))) {
      assertThat(next.fencingToken()).isGreaterThan(lease.fencingToken());
    }
  }

  @Test
  void theClientKeepsWorkingWithANewSessionAfterExpiry() throws Exception {
    LockClient client = client();
    try (Lease lease = client.lock(key).acquire()) {
      zookeeper.server().expireSession(inspector.ownerSession(key));
      await().until(() -> !lease.isHeld());
    }
    await().ignoreExceptions().untilAsserted(() -> {
      try (Lease again = client.lock(key).acquire(Duration.ofSeconds(2))) {
        assertThat(again.isHeld()).isTrue();
      }
    });
  }

  /**
   * The client declares its session expired by itself (it heard nothing for longer than the session timeout) while
   * the server cannot be reached, and opens a new session that cannot connect yet. An acquire without a wait time
   * then waits for the new session instead of failing, and takes the lock once the server is reachable again.
   * Meanwhile the backend still caps leases at the session timeout the server granted, never at zero (the new
   * session has none yet), which once made that acquire fail at once.
   */
  @Test
  void anUnboundedAcquireAfterASessionExpiryWaitsForTheNewSession() throws Exception {
    TcpProxy proxy = TcpProxy.start("127.0.0.1", zookeeper.server().port());
    resources.add(proxy);
    Duration sessionTimeout = Duration.ofSeconds(1);
    ZooKeeperBackend backend = ZooKeeperBackend.connect(new ZooKeeperSettings(proxy.address(), sessionTimeout,
        Duration.ofSeconds(10), null, ZooDefs.Ids.OPEN_ACL_UNSAFE, ZooKeeperLockClient.DEFAULT_NAMESPACE,
        ZooKeeperLockClient.Compat.NONE));
    LockClient client = ClientFactory.newClient(backend, LockOptions.defaults());
    resources.add(client);
    Lease lease = client.lock(key).acquire();
    Set<Thread> firstSession = sendThreadsTo(proxy);
    assertThat(firstSession).hasSize(1);

    proxy.refuseConnections(true);
    proxy.dropConnections();
    await("a new session, not connected").until(() -> !sendThreadsTo(proxy).isEmpty()
        && Collections.disjoint(sendThreadsTo(proxy), firstSession));
    await().until(() -> !lease.isHeld());
    assertThat(backend.maxTtl()).as("the longest a lease counts as held, with the new session not connected")
        .isEqualTo(sessionTimeout);
    BackgroundCall<Lease> acquiring = BackgroundCall.start("acquire-after-expiry", () -> client.lock(key).acquire());
    acquiring.awaitBlocked();

    proxy.refuseConnections(false);
    try (Lease next = acquiring.result(Duration.ofSeconds(10))) {
      assertThat(next.isHeld()).isTrue();
      assertThat(next.fencingToken()).isGreaterThan(lease.fencingToken());
    }
  }

  /** The live ZooKeeper client threads that talk to {@code proxy}, one per session handle. */
  private static Set<Thread> sendThreadsTo(TcpProxy proxy) {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.isAlive() && t.getName().contains("-SendThread(" + proxy.address()))
        .collect(Collectors.toSet());
  }

  /**
   * A server that accepts the connection and never answers: the connect gives up within its connection timeout
   * (the bound below only guards against a hang), says where and what to do, and leaves no ZooKeeper client
   * thread behind.
   */
  @Test
  void aSilentServerFailsTheConnectWithinItsTimeoutAndLeavesNoThreads() throws Exception {
    Duration connectTimeout = Duration.ofSeconds(1);
    try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      String address = "127.0.0.1:" + silent.getLocalPort();
      // The backlog completes the TCP handshake: the client connects, sends its session request and waits.
      BackgroundCall<LockClient> connecting = BackgroundCall.start("silent-" + silent.getLocalPort(), () ->
          ZooKeeperLockClient.builder().connectString(address).connectTimeout(connectTimeout).connect());
      assertThat(connecting.failure(connectTimeout.plusSeconds(5)))
          .isInstanceOf(BackendUnavailableException.class)
          .hasMessageContaining(address)
          .hasMessageContaining("connectTimeout");
      await().atMost(Duration.ofSeconds(5)).until(() -> Thread.getAllStackTraces().keySet().stream()
          .noneMatch(t -> t.isAlive() && t.getName().startsWith("silent-" + silent.getLocalPort() + "-")));
    }
  }

  @Test
  void keysMustBeRelativePathsOfLegalSegments() {
    LockClient client = client();
    for (String bad : List.of("/orders", "orders/", "orders//42", "..", "orders/../42", "orders/./42", "_c_x", "a/_c_b", "emoji-\uD83D\uDE00")) {
      assertThatThrownBy(() -> client.lock(bad)).as(bad).isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining(bad.startsWith("emoji") ? "U+D83D" : bad);
    }
    assertThat(client.lock("orders/42/line-7").key()).isEqualTo("orders/42/line-7");
  }

  /** A prefix to list is the start of a key: its complete segments are legal, and so is the start of the last. */
  @Test
  void listTakesPrefixesThatKeysCanStartWith() throws Exception {
    LockClient client = client();
    for (String bad : List.of("/orders", "orders//", "../", "orders/./", "_c_", "a/_c_b", "a/_c_/b")) {
      assertThatThrownBy(() -> client.list(bad, 10)).as(bad).isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("'" + bad + "'");
    }
    try (Lease dotted = client.lock(key + "/.hidden").acquire(); Lease other = client.lock(key + "/_c").acquire()) {
      assertThat(client.list(key + "/.", 10)).extracting(LockStatus::key).containsExactly(key + "/.hidden");
      assertThat(client.list(key + "/_", 10)).extracting(LockStatus::key).containsExactly(key + "/_c");
      assertThat(client.list(key + "/", 10)).extracting(LockStatus::key).containsExactly(key + "/.hidden", key + "/_c");
    }
  }

  @Test
  void theChrootIsCreatedAndLocksLiveInside() throws Exception {
    LockClient client = client(ZooKeeperLockClient.builder().connectString(zookeeper.connectString() + "/apps/billing"));
    try (Lease lease = client.lock(key).acquire()) {
      assertThat(inspector.zk().getChildren("/apps/billing/baton/" + key, false)).hasSize(1);
    }
  }

  @Test
  void credentialsProtectTheNodesFromOtherUsers() throws Exception {
    LockClient client = client(ZooKeeperLockClient.builder().connectString(zookeeper.connectString())
        .namespace("/secured").credentials("billing", "s3cret"));
    try (Lease lease = client.lock(key).acquire()) {
      String lockPath = "/secured/" + key;
      assertThatThrownBy(() -> inspector.zk().getChildren(lockPath, false)).isInstanceOf(KeeperException.NoAuthException.class);
      assertThatThrownBy(() -> inspector.zk().delete(lockPath, -1)).isInstanceOf(KeeperException.NoAuthException.class);
      assertThat(lease.isHeld()).isTrue();
    }
  }

  @Test
  void anUnreachableEnsembleFailsTheConnectAndLeavesNoThreads() throws IOException {
    int closedPort;
    try (ServerSocket socket = new ServerSocket(0)) {
      closedPort = socket.getLocalPort();
    }
    assertThatThrownBy(() -> ZooKeeperLockClient.builder().connectString("127.0.0.1:" + closedPort)
        .connectTimeout(Duration.ofMillis(500)).connect())
        .isInstanceOf(BackendUnavailableException.class)
        .hasMessageContaining("127.0.0.1:" + closedPort);
    await().until(() -> Thread.getAllStackTraces().keySet().stream()
        .noneMatch(t -> t.getName().contains("127.0.0.1:" + closedPort) || t.getName().startsWith("baton-")
            && !t.getName().contains("proxy")));
  }

  @Test
  void badSettingsAreRejectedWithTheValueAndTheFix() {
    assertThatThrownBy(() -> ZooKeeperLockClient.connect("zookeeper://127.0.0.1:2181"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("zookeeper://127.0.0.1:2181");
    assertThatThrownBy(() -> ZooKeeperLockClient.builder().namespace("baton")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'baton'");
    assertThatThrownBy(() -> ZooKeeperLockClient.builder().sessionTimeout(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("sessionTimeout");
    // A session timeout no server grants, and a namespace no server takes, fail here, not after seconds of trying.
    assertThatThrownBy(() -> ZooKeeperLockClient.builder().sessionTimeout(Duration.ofMillis(1)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContainingAll("sessionTimeout", "100 ms");
    assertThatThrownBy(() -> ZooKeeperLockClient.builder().namespace("/" + "b".repeat(1 << 20)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContainingAll("namespace", "128");
    assertThatThrownBy(() -> ZooKeeperLockClient.builder().credentials("a:b", "x")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> ZooKeeperLockClient.builder().connect()).isInstanceOf(IllegalStateException.class);
  }
}
