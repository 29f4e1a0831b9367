package dev.baton.etcd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.DistributedLock;
import dev.baton.Lease;
import dev.baton.LockClient;
import dev.baton.LockOptions;
import dev.baton.testkit.EtcdServerExtension;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Outages of a member of its own: a restarted etcd comes back empty and busy creating its files, which the timing
 * of the other classes' tests need not share.
 */
class EtcdOutageTest {
  @RegisterExtension
  static final EtcdServerExtension etcd = new EtcdServerExtension();

  private static final Duration SESSION_TIMEOUT = Duration.ofSeconds(3);
  private static final Duration LONG_WAIT = Duration.ofSeconds(10);

  private LockClient client;

  @AfterEach
  void closeClientAndBringEtcdBack() {
    if (client != null) {
      client.close();
    }
    if (!etcd.server().isRunning()) {
      etcd.server().start();
    }
  }

  /**
   * The promise of every store: without a wait time, an acquire keeps trying through an outage for the ttl it
   * asked for. etcd used to give up after a third of its lease's ttl (here 1 s), the cap on how long it counts a
   * lock as held, which has nothing to do with how long to wait.
   */
  @Test
  @Timeout(60)
  void anUnboundedAcquireKeepsTryingThroughAnOutageShorterThanItsTtl() throws Exception {
    Duration ttl = Duration.ofSeconds(8);
    client = EtcdLockClient.builder().endpoints(etcd.endpoint()).sessionTimeout(SESSION_TIMEOUT).connect();
    DistributedLock lock = client.lock("outage/unbounded", LockOptions.builder().ttl(ttl).build());
    etcd.server().stop();
    CompletableFuture<Lease> acquiring = lock.acquireAsync();
    try {
      await("still trying, three times as long as a third of the lease's ttl").during(SESSION_TIMEOUT).atMost(LONG_WAIT)
          .until(() -> !acquiring.isDone());
    } finally {
      etcd.server().start();
    }
    try (Lease lease = acquiring.get(LONG_WAIT.toSeconds(), TimeUnit.SECONDS)) {
      assertThat(lease.isHeld()).isTrue();
    }
  }
}
