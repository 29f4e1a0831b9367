package dev.baton.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.LockStatus;
import dev.baton.embedded.EmbeddedZooKeeper;
import dev.baton.spi.LockBackend;
import dev.baton.spi.QueueRule;
import dev.baton.testkit.EmbeddedZooKeeperExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What only ZooKeeper does with shared entries and permits, at the SPI: how their nodes are named, what their waiters
 * watch, which tokens they take, how the status counts them. Every acquisition is on a backend, a session, of its
 * own, and the sessions are the server's longest, so that no waiter looks at the queue again by itself.
 */
@Timeout(60)
class ZooKeeperSharedEntriesTest {
  @RegisterExtension
  static final EmbeddedZooKeeperExtension zookeeper = new EmbeddedZooKeeperExtension();

  private static final QueueRule TWO = QueueRule.permits(2);

  private static ZkInspector inspector;
  private final List<LockBackend> backends = new ArrayList<>();
  private String key;
  private String lockPath;

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
    key = "rules/" + test.getTestMethod().orElseThrow().getName() + "/"
        + Long.toHexString(ThreadLocalRandom.current().nextLong());
    lockPath = ZkInspector.lockPath(key);
  }

  @AfterEach
  void closeBackends() {
    backends.forEach(LockBackend::close);
  }

  @Test
  void eachNodeIsNamedForItsRule() throws Exception {
    SpiAcquisition reader = take(QueueRule.SHARED);
    SpiAcquisition permit = take(TWO);
    SpiAcquisition writer = startWaiting(QueueRule.EXCLUSIVE, true);

    assertThat(inspector.lockNodes(key)).satisfiesExactly(
        node -> assertThat(node).startsWith("_c_" + reader.ownerId() + "-__READ__").matches(".*__\\d{10}"),
        node -> assertThat(node).startsWith("_c_" + permit.ownerId() + "-permits-2-").matches(".*-\\d{10}"),
        node -> assertThat(node).startsWith("_c_" + writer.ownerId() + "-lock-").matches(".*-\\d{10}"));
  }

  /**
   * Permits come back in any order: the first waiter watches both, each waiter behind it the one before it, which
   * writes its node when granted. So a release wakes the first waiter, whose grant wakes the next, and no one else.
   */
  @Test
  void aReleasedPermitWakesTheFirstWaiterWhicheverItIsAndItsGrantTheNext() throws Exception {
    SpiAcquisition older = take(TWO);
    SpiAcquisition newer = take(TWO);
    SpiAcquisition first = startWaiting(TWO, true);
    SpiAcquisition second = startWaiting(TWO, true);
    SpiAcquisition third = startWaiting(TWO, true);
    List<String> queue = inspector.lockNodes(key);
    assertThat(zookeeper.server().dataWatches(lockPath)).isEqualTo(Map.of(
        lockPath + "/" + queue.get(0), 1, lockPath + "/" + queue.get(1), 1,
        lockPath + "/" + queue.get(2), 1, lockPath + "/" + queue.get(3), 1));

    newer.release();
    assertThat(first.awaitGrant().fencingToken()).isGreaterThan(newer.granted().fencingToken());
    assertThat(second.tryWhenWoken()).as("the next waiter, woken by the grant ahead of it").isNull();
    assertThat(third.wakeUps()).isZero();

    older.release();
    assertThat(second.awaitGrant().fencingToken()).isGreaterThan(first.granted().fencingToken());
    assertThat(third.tryWhenWoken()).isNull();
    first.release();
    assertThat(third.awaitGrant().fencingToken()).isGreaterThan(second.granted().fencingToken());

    second.release();
    third.release();
    assertThat(inspector.lockNodes(key)).as("nodes left behind").isEmpty();
  }

  @Test
  void anAbandonedPermitWaiterPassesItsPlaceInTheChainOn() throws Exception {
    SpiAcquisition older = take(TWO);
    SpiAcquisition newer = take(TWO);
    SpiAcquisition first = startWaiting(TWO, true);
    SpiAcquisition leaving = startWaiting(TWO, true);
    SpiAcquisition last = startWaiting(TWO, true);

    leaving.abandon();
    assertThat(last.tryWhenWoken()).as("woken by the abandon, now behind the first waiter").isNull();
    older.release();
    first.awaitGrant();
    assertThat(last.tryWhenWoken()).isNull();
    newer.release();
    last.awaitGrant();

    first.release();
    last.release();
    assertThat(inspector.lockNodes(key)).as("nodes left behind").isEmpty();
  }

  /** A reader granted before an older one, which it holds beside, gets the smaller token. */
  @Test
  void readersLetInTogetherTakeGrowingTokensInTheOrderTheyAreGranted() {
    SpiAcquisition writer = take(QueueRule.EXCLUSIVE);
    SpiAcquisition older = startWaiting(QueueRule.SHARED, true);
    SpiAcquisition newer = startWaiting(QueueRule.SHARED, true);

    writer.release();
    long newerToken = newer.awaitGrant().fencingToken();
    long olderToken = older.awaitGrant().fencingToken();

    assertThat(newerToken).isGreaterThan(writer.granted().fencingToken());
    assertThat(olderToken).as("granted last, though first in line").isGreaterThan(newerToken);
  }

  /** The same with permits: the second waiter's own retry comes first, before its predecessor has noticed. */
  @Test
  void permitsTakeGrowingTokensInTheOrderTheyAreGranted() {
    SpiAcquisition older = take(TWO);
    SpiAcquisition newer = take(TWO);
    SpiAcquisition first = startWaiting(TWO, true);
    SpiAcquisition second = startWaiting(TWO, true);

    older.release();
    newer.release();
    long secondToken = second.tryOnce().fencingToken();
    long firstToken = first.awaitGrant().fencingToken();

    assertThat(secondToken).isGreaterThan(newer.granted().fencingToken());
    assertThat(firstToken).as("granted last, though first in line").isGreaterThan(secondToken);
  }

  /** Nothing but a grant out of queue order writes: a lock's token is its node's czxid, and its path is never written. */
  @Test
  void aKeyThatOnlyLocksTakeIsNeverWritten() throws Exception {
    SpiAcquisition holder = take(QueueRule.EXCLUSIVE);
    SpiAcquisition waiter = startWaiting(QueueRule.EXCLUSIVE, true);
    String waiterNode = lockPath + "/" + inspector.lockNodes(key).get(1);

    holder.release();
    long token = waiter.awaitGrant().fencingToken();

    Stat node = inspector.zk().exists(waiterNode, false);
    assertThat(token).isEqualTo(node.getCzxid());
    assertThat(node.getMzxid()).isEqualTo(node.getCzxid());
    Stat path = inspector.zk().exists(lockPath, false);
    assertThat(path.getMzxid()).isEqualTo(path.getCzxid());
  }

  @Test
  void statusAndListNameTheOldestHolderAndCountTheEntriesTheirRuleKeepsWaiting() {
    SpiAcquisition oldest = take(QueueRule.SHARED);
    SpiAcquisition beside = take(QueueRule.SHARED);
    startWaiting(QueueRule.EXCLUSIVE, true);
    startWaiting(QueueRule.SHARED, true);
    LockBackend observer = backend();

    assertHeldBy(observer.status(key), oldest, 2);
    assertThat(observer.list(key, 10)).singleElement().satisfies(status -> assertHeldBy(status, oldest, 2));
    oldest.release();
    assertHeldBy(observer.status(key), beside, 2);
  }

  @Test
  void aNonFairPermitWaiterKeepsNoNodeAndWatchesEveryHolder() throws Exception {
    SpiAcquisition older = take(TWO);
    SpiAcquisition newer = take(TWO);
    SpiAcquisition nonFair = startWaiting(TWO, false);
    List<String> queue = inspector.lockNodes(key);
    assertThat(queue).hasSize(2);
    assertThat(zookeeper.server().dataWatches(lockPath))
        .isEqualTo(Map.of(lockPath + "/" + queue.get(0), 1, lockPath + "/" + queue.get(1), 1));

    newer.release();

    assertThat(nonFair.awaitGrant().fencingToken()).isGreaterThan(newer.granted().fencingToken());
    older.release();
    nonFair.release();
    assertThat(inspector.lockNodes(key)).as("nodes left behind").isEmpty();
  }

  private static void assertHeldBy(LockStatus status, SpiAcquisition holder, int waiters) {
    assertThat(status.ownerId()).contains(holder.ownerId());
    assertThat(status.fencingToken()).hasValue(holder.granted().fencingToken());
    assertThat(status.waiters()).isEqualTo(waiters);
  }

  /** A new client of the server, a session of its own. */
  private LockBackend backend() {
    LockBackend backend = ZooKeeperBackend.connect(new ZooKeeperSettings(zookeeper.connectString(),
        EmbeddedZooKeeper.MAX_SESSION_TIMEOUT, Duration.ofSeconds(10), null, ZooDefs.Ids.OPEN_ACL_UNSAFE,
        ZooKeeperLockClient.DEFAULT_NAMESPACE,
        ZooKeeperLockClient.Compat.NONE));
    backends.add(backend);
    return backend;
  }

  /** An entry granted at once, on a client of its own. */
  private SpiAcquisition take(QueueRule rule) {
    SpiAcquisition acquisition = SpiAcquisition.start(backend(), key, UUID.randomUUID() + ":1", rule, true);
    acquisition.granted();
    return acquisition;
  }

  /** An entry that must wait, on a client of its own. */
  private SpiAcquisition startWaiting(QueueRule rule, boolean fair) {
    SpiAcquisition acquisition = SpiAcquisition.start(backend(), key, UUID.randomUUID() + ":1", rule, fair);
    assertThat(acquisition.tryOnce()).as("granted while it should wait").isNull();
    return acquisition;
  }
}
