package dev.baton.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeout;
import static org.awaitility.Awaitility.await;

import dev.baton.DistributedLock;
import dev.baton.Lease;
import dev.baton.LockOptions;
import dev.baton.servers.TcpProxy;
import dev.baton.testkit.EmbeddedZooKeeperExtension;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The requests an uncontended acquire and release send, counted by the server for the client's session. The
 * session timeout is the server's longest, so that the watchdog renews nothing while a cycle holds the lock.
 */
@Timeout(30)
class RoundTripsTest {
  @RegisterExtension
  static final EmbeddedZooKeeperExtension zookeeper = new EmbeddedZooKeeperExtension();

  private static final Duration SESSION_TIMEOUT = Duration.ofSeconds(10);
  private static final int CYCLES = 50;

  private String key;

  @BeforeEach
  void chooseKey(TestInfo test) {
    key = "rt/" + test.getTestMethod().orElseThrow().getName() + "/" + Long.toHexString(ThreadLocalRandom.current().nextLong());
  }

  /** The fair lock: create and getChildren to acquire, delete to release. */
  @Test
  void anUncontendedFairCycleSendsCreateGetChildrenAndDelete() throws InterruptedException {
    try (ObservedClient observed = ObservedClient.connect(zookeeper.connectString(), SESSION_TIMEOUT)) {
      assertThat(requestsPerCycle(observed, observed.client().lock(key))).isEqualTo(3);
    }
  }

  /** The non-fair lock queues as the fair one does, uncontended: create and getChildren to acquire, delete to release. */
  @Test
  void anUncontendedNonFairCycleSendsCreateGetChildrenAndDelete() throws InterruptedException {
    try (ObservedClient observed = ObservedClient.connect(zookeeper.connectString(), SESSION_TIMEOUT)) {
      DistributedLock lock = observed.client().lock(key, LockOptions.defaults().toBuilder().fair(false).build());
      assertThat(requestsPerCycle(observed, lock)).isEqualTo(3);
    }
  }

  /**
   * The fair acquire sends its create and its getChildren back to back: both reach the server while the proxy
   * keeps every reply from the client, so the listing went out before the create's reply came back, and the
   * acquire waits for one round trip. Once the replies arrive the lock is granted with no further request.
   */
  @Test
  void aFairAcquireSendsTheListingBeforeTheCreateIsAnswered() throws Exception {
    try (TcpProxy proxy = TcpProxy.start("127.0.0.1", zookeeper.server().port());
        ObservedClient observed = ObservedClient.connect(proxy.address(), SESSION_TIMEOUT)) {
      DistributedLock lock = observed.client().lock(key);
      lock.acquire().close(); // creates the lock's parent nodes
      long session = observed.sessionId();
      SessionCounters before = SessionCounters.of(session);

      proxy.delayReplies();
      CompletableFuture<Lease> acquiring = lock.acquireAsync();
      await().until(() -> SessionCounters.of(session).requestsSince(before) == 2);
      assertThat(SessionCounters.of(session).lastOperation()).isEqualTo("GETC");
      assertThat(acquiring).as("the acquire, with no reply delivered yet").isNotDone();

      proxy.deliverReplies();
      try (Lease lease = acquiring.get(10, TimeUnit.SECONDS)) {
        assertThat(lease.isHeld()).isTrue();
        assertThat(SessionCounters.of(session).requestsSince(before)).as("requests for the grant").isEqualTo(2);
      }
    }
  }

  /**
   * The Lock methods' unlock sends the delete and returns, its reply still held back by the proxy: this session's next
   * requests follow the delete at the server. Another client of this process that takes the lock waits for the
   * delete's answer first, so that it finds the lock free as it would after an answered release.
   */
  @Test
  void anUnlockReturnsBeforeTheDeleteIsAnsweredAndAnotherClientHereWaitsForTheAnswer() throws Exception {
    try (TcpProxy proxy = TcpProxy.start("127.0.0.1", zookeeper.server().port());
        ObservedClient observed = ObservedClient.connect(proxy.address(), SESSION_TIMEOUT);
        ObservedClient other = ObservedClient.connect(zookeeper.connectString(), SESSION_TIMEOUT)) {
      DistributedLock lock = observed.client().lock(key);
      lock.acquire().close(); // creates the lock's parent nodes
      lock.lock();
      long session = observed.sessionId();
      SessionCounters before = SessionCounters.of(session);

      proxy.delayReplies();
      assertTimeout(SESSION_TIMEOUT.dividedBy(2), lock::unlock, "an unlock that waited for the delete's reply");
      await().until(() -> SessionCounters.of(session).requestsSince(before) == 1);
      assertThat(SessionCounters.of(session).lastOperation()).isEqualTo("DELE");

      CompletableFuture<Boolean> othersTry = CompletableFuture.supplyAsync(() -> other.client().lock(key).tryLock());
      await("the other client waits for the delete's answer").during(Duration.ofMillis(300))
          .atMost(Duration.ofSeconds(5)).until(() -> !othersTry.isDone());

      proxy.deliverReplies();
      assertThat(othersTry.get(10, TimeUnit.SECONDS)).as("the other client's tryLock").isTrue();
    }
  }

  /** The requests one lock and unlock of {@code lock} cost, averaged over many cycles after a first one. */
  private static double requestsPerCycle(ObservedClient observed, DistributedLock lock) throws InterruptedException {
    lock.acquire().close(); // creates the lock's parent nodes
    long session = observed.sessionId();
    SessionCounters before = SessionCounters.of(session);
    for (int i = 0; i < CYCLES; i++) {
      try (Lease lease = lock.acquire()) {
        assertThat(lease.isHeld()).isTrue();
      }
    }
    SessionCounters after = SessionCounters.of(session);
    assertThat(after.lastOperation()).as("the last request").isEqualTo("DELE");
    return (double) after.requestsSince(before) / CYCLES;
  }
}
