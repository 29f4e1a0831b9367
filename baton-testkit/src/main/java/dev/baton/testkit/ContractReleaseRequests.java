package dev.baton.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.baton.DistributedSemaphore;
import dev.baton.Lease;
import dev.baton.Leadership;
import dev.baton.LockClient;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Requests to release ({@link LockClient#requestRelease}, {@link Lease#onReleaseRequested}): every holder of a key is
 * told, in whichever client, and keeps its lock unless it lets go; nobody is told of a key no longer held; a closed
 * client leaves nothing behind. Part of the {@link LockClientContract}: it runs as a nested class of the backend's
 * test.
 */
abstract class ContractReleaseRequests extends ContractGroup {

  ContractReleaseRequests(LockClientContract contract) {
    super(contract);
  }

  @BeforeEach
  final void onlyWhereRequestsAreDelivered() {
    assumeTrue(deliversReleaseRequests(), "the store cannot deliver requests to release");
  }

  @Test
  @Timeout(30)
  void aHolderInAnotherClientIsToldOncePerRequestAndKeepsItsLockIfItIgnoresThem() throws Exception {
    LockClient holding = newClient();
    LockClient asking = newClient();
    Lease lease = holding.lock(key, baseOptions()).acquire(LONG_WAIT);
    AtomicInteger told = new AtomicInteger();
    lease.onReleaseRequested(told::incrementAndGet);

    assertThat(asking.requestRelease(key)).isEqualTo(1);
    await().atMost(PROMPTLY).until(() -> told.get() == 1);
    assertThat(asking.requestRelease(key)).isEqualTo(1);
    await().atMost(PROMPTLY).until(() -> told.get() == 2);

    await().during(A_WHILE).atMost(A_WHILE.plus(PROMPTLY)).until(() -> lease.isHeld() && told.get() == 2);
    assertThat(asking.lock(key, baseOptions()).tryAcquire()).as("a request is no loss").isEmpty();
  }

  @Test
  @Timeout(30)
  void aHolderThatReleasesWhenAskedLetsAWaiterIn() throws Exception {
    LockClient holding = newClient();
    LockClient asking = newClient();
    Lease lease = holding.lock(key, baseOptions()).acquire(LONG_WAIT);
    lease.onReleaseRequested(lease::close);

    assertThat(asking.requestRelease(key)).isEqualTo(1);
    try (Lease next = asking.lock(key, baseOptions()).acquire(LONG_WAIT)) {
      assertThat(next.fencingToken()).isGreaterThan(lease.fencingToken());
      assertThat(lease.isHeld()).isFalse();
    }
  }

  @Test
  @Timeout(30)
  void everyReaderIsAskedAndEachEntryCounted() throws Exception {
    assumeSharedEntries();
    LockClient one = newClient();
    LockClient other = newClient();
    List<Lease> readers = List.of(one.readWriteLock(key, baseOptions()).readLock().acquire(LONG_WAIT),
        one.readWriteLock(key, baseOptions()).readLock().acquire(LONG_WAIT),
        other.readWriteLock(key, baseOptions()).readLock().acquire(LONG_WAIT));
    List<Lease> told = new CopyOnWriteArrayList<>();
    readers.forEach(reader -> reader.onReleaseRequested(() -> told.add(reader)));

    long entries = readers.stream().map(Lease::ownerId).distinct().count();
    assertThat(newClient().requestRelease(key)).isEqualTo((int) entries);
    await().atMost(PROMPTLY).until(() -> told.size() == readers.size());
    assertThat(told).containsExactlyInAnyOrderElementsOf(readers);
    assertThat(readers).allMatch(Lease::isHeld);
  }

  @Test
  @Timeout(30)
  void everyPermitIsAskedAndCounted() throws Exception {
    assumeSharedEntries();
    LockClient one = newClient();
    LockClient other = newClient();
    DistributedSemaphore semaphore = one.semaphore(key, 3, baseOptions());
    List<Lease> permits = List.of(semaphore.acquire(LONG_WAIT), semaphore.acquire(LONG_WAIT),
        other.semaphore(key, 3, baseOptions()).acquire(LONG_WAIT));
    List<Lease> told = new CopyOnWriteArrayList<>();
    permits.forEach(permit -> permit.onReleaseRequested(() -> told.add(permit)));

    assertThat(other.requestRelease(key)).isEqualTo(3);
    await().atMost(PROMPTLY).until(() -> told.size() == permits.size());
    assertThat(told).containsExactlyInAnyOrderElementsOf(permits);
  }

  @Test
  @Timeout(30)
  void aFreeKeyOrOneReleasedBeforeTheRequestReachesNobody() throws Exception {
    LockClient holding = newClient();
    LockClient asking = newClient();
    assertThat(asking.requestRelease(key)).isZero();

    Lease lease = holding.lock(key, baseOptions()).acquire(LONG_WAIT);
    AtomicInteger told = new AtomicInteger();
    lease.onReleaseRequested(told::incrementAndGet);
    lease.close();
    await().atMost(PROMPTLY).until(() -> entriesAtStore(key) == 0);

    assertThat(asking.requestRelease(key)).isZero();
    await().during(A_WHILE).atMost(A_WHILE.plus(PROMPTLY)).until(() -> told.get() == 0);
  }

  @Test
  @Timeout(30)
  void aLeaderIsToldAndLeadsOnIfItIgnoresIt() {
    LockClient candidate = newClient();
    try (Leadership leadership = candidate.leadership(key, baseOptions())) {
      leadership.start();
      Lease term = await().atMost(LONG_WAIT).until(leadership::term, t -> t.isPresent()).orElseThrow();
      AtomicInteger told = new AtomicInteger();
      term.onReleaseRequested(told::incrementAndGet);

      assertThat(newClient().requestRelease(key)).isEqualTo(1);
      await().atMost(PROMPTLY).until(() -> told.get() == 1);
      assertThat(leadership.isLeader()).isTrue();
      assertThat(leadership.term()).contains(term);
    }
  }

  @Test
  @Timeout(30)
  void aClosedClientLeavesNoListeningBehind() throws Exception {
    LockClient holding = newClient();
    String clientId = holding.clientId();
    Lease lease = holding.lock(key, baseOptions()).acquire(LONG_WAIT);
    lease.onReleaseRequested(() -> { });
    boolean seenAtStore = listensForReleaseRequestsAtStore(clientId);

    holding.close();
    if (seenAtStore) {
      await().atMost(PROMPTLY).until(() -> !listensForReleaseRequestsAtStore(clientId));
    }
    await().atMost(PROMPTLY).until(() -> Thread.getAllStackTraces().keySet().stream()
        .noneMatch(thread -> thread.getName().contains(clientId)));
    assertThat(newClient().requestRelease(key)).isZero();
  }

  @Test
  void aBadKeyIsRefusedAsElsewhere() {
    LockClient client = newClient();
    assertThatThrownBy(() -> client.requestRelease("")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> client.requestRelease(null)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> client.requestRelease("a\u0000b")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("a");
  }
}
