package dev.baton.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.DistributedSemaphore;
import dev.baton.Lease;
import dev.baton.LockClient;
import dev.baton.LockOptions;
import dev.baton.LockStatus;
import dev.baton.LockTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * At most N permits held at once, each a lease with everything a mutex's has. Part of the {@link LockClientContract}:
 * it runs as a nested class of the backend's test.
 */
abstract class ContractSemaphore extends ContractGroup {
  private static final Logger log = LoggerFactory.getLogger(ContractSemaphore.class);
  /** How many permits the lone thread of a client takes while a client of three threads takes permits too. */
  private static final int LONE_TURNS = 6;
  /**
   * How many turns a client may take while another waits for the only permit: in order of arrival, one (its thread
   * that came to the store first), two if the other's wait began during a round trip; the rest is slack.
   */
  private static final int MOST_TURNS_WHILE_ANOTHER_WAITS = 4;
  /** How long a thread is seen parked to count as waiting at the store rather than in a round trip to it. */
  private static final Duration QUEUED_AT_THE_STORE = Duration.ofMillis(20);

  ContractSemaphore(LockClientContract contract) {
    super(contract);
  }

  @BeforeEach
  final void onlyWhereSharedEntriesAreTaken() {
    assumeSharedEntries();
  }

  @Test
  @Timeout(30)
  void permitsAreHeldUpToTheirNumberAndAWaiterGetsOneThatIsFreed() throws Exception {
    DistributedSemaphore mine = newClient().semaphore(key, 2);
    DistributedSemaphore others = newClient().semaphore(key, 2);
    Lease first = mine.acquire(LONG_WAIT);
    Lease second = others.acquire(LONG_WAIT);
    assertThat(others.tryAcquire()).as("a third permit of two").isEmpty();
    BackgroundCall<Lease> waiter = BackgroundCall.start("permit-waiter", () -> others.acquire(LONG_WAIT));
    waiter.awaitBlocked();

    first.close();
    try (Lease third = waiter.result(PROMPTLY)) {
      assertThat(third.fencingToken()).isGreaterThan(second.fencingToken()).isGreaterThan(first.fencingToken());
      assertThat(mine.tryAcquire()).isEmpty();
    }
    second.close();
    await().atMost(PROMPTLY).until(() -> entriesAtStore(key) == 0);
  }

  @Test
  @Timeout(60)
  void theFirstThreadToWaitIsServedBeforeALaterOneHasASecondTurnAndEachGrantHasItsOwnToken() throws Exception {
    DistributedSemaphore slot = newClient().semaphore(key, 1, fair());
    Lease held = slot.acquire(LONG_WAIT);
    Grants grants = new Grants();
    grants.add("held", held);
    BackgroundCall<Void> first = BackgroundCall.start("first", () -> takeTurns(slot, "first", 1, grants));
    first.awaitBlocked(); // at the store, with its client's turn
    List<BackgroundCall<Void>> later = new ArrayList<>();
    for (int t = 0; t < 2; t++) {
      String name = "later-" + t;
      later.add(BackgroundCall.start(name, () -> takeTurns(slot, name, 3, grants)));
      later.get(t).awaitBlocked();
    }

    held.close();
    first.result(LONG_WAIT);
    awaitAll(later, LONG_WAIT);

    List<String> order = grants.holders();
    for (int t = 0; t < 2; t++) {
      assertThat(order.indexOf("first")).as("the first waiter's grant in %s, before later-%d's second", order, t)
          .isLessThan(indexOfTurn(order, "later-" + t, 2));
    }
    assertStrictlyIncreasing(grants.tokens());
    await().atMost(PROMPTLY).until(() -> entriesAtStore(key) == 0);
  }

  /**
   * A client with three threads and one with one, all taking the only permit again and again, the three holding it each
   * time until the lone thread waits for it: between two grants to the lone thread, the three take a few turns at
   * most, not a chain of them. The shares go to the log.
   */
  @Test
  @Timeout(60)
  void aClientWithManyThreadsTakesOnlyAFewTurnsWhileAnotherClientWaits() throws Exception {
    LockClient crowdClient = newClient();
    DistributedSemaphore crowd = crowdClient.semaphore(key, 1, fair());
    DistributedSemaphore lone = newClient().semaphore(key, 1, fair());
    Grants grants = new Grants();
    AtomicBoolean done = new AtomicBoolean();
    BackgroundCall<Void> alone = BackgroundCall.start("lone", () -> {
      try {
        return takeTurns(lone, "lone", LONE_TURNS, grants);
      } finally {
        done.set(true);
      }
    });
    List<BackgroundCall<Void>> crowded = new ArrayList<>();
    for (int t = 0; t < 3; t++) {
      crowded.add(BackgroundCall.start("crowd-" + t, () -> {
        while (!done.get()) {
          try (Lease permit = crowd.acquire(LONG_WAIT)) {
            grants.add("crowd", permit);
            await("the lone thread waits").atMost(LONG_WAIT).pollInterval(Duration.ofMillis(2))
                .during(QUEUED_AT_THE_STORE).until(() -> done.get() || alone.isParked());
          }
        }
        return null;
      }));
    }
    alone.result(Duration.ofSeconds(40));
    awaitAll(crowded, LONG_WAIT);

    List<Integer> crowdTurnsBefore = new ArrayList<>();
    int run = 0;
    for (String holder : grants.holders()) {
      if (holder.equals("lone")) {
        crowdTurnsBefore.add(run);
        run = 0;
      } else {
        run++;
      }
    }
    log.info("Semaphore of one permit on {}: turns of a client of three threads before each of {} turns of a client"
        + " of one: {}", crowdClient.backendName(), LONE_TURNS, crowdTurnsBefore);
    assertThat(crowdTurnsBefore).as("turns of the three-thread client while the other waited, in %s", grants.holders())
        .allSatisfy(turns -> assertThat(turns).isLessThanOrEqualTo(MOST_TURNS_WHILE_ANOTHER_WAITS));
  }

  /** The suite's options, fair: a non-fair waiter races for a free permit, in no order. */
  private LockOptions fair() {
    return baseOptions().toBuilder().fair(true).build();
  }

  /** Where {@code holder}'s grant number {@code turn} (from 1) stands in {@code order}. */
  private static int indexOfTurn(List<String> order, String holder, int turn) {
    int seen = 0;
    for (int i = 0; i < order.size(); i++) {
      if (order.get(i).equals(holder) && ++seen == turn) {
        return i;
      }
    }
    throw new AssertionError(holder + " was not granted " + turn + " times in " + order);
  }

  /** Takes a permit {@code turns} times, noting each grant while it is held. */
  private static Void takeTurns(DistributedSemaphore semaphore, String holder, int turns, Grants grants)
      throws InterruptedException {
    for (int i = 0; i < turns; i++) {
      try (Lease permit = semaphore.acquire(LONG_WAIT)) {
        grants.add(holder, permit);
      }
    }
    return null;
  }

  /** Who was granted a permit, and with what token, in grant order. */
  private static final class Grants {
    private final List<String> holders = new ArrayList<>();
    private final List<Long> tokens = new ArrayList<>();

    synchronized void add(String holder, Lease permit) {
      holders.add(holder);
      tokens.add(permit.fencingToken());
    }

    synchronized List<String> holders() {
      return List.copyOf(holders);
    }

    synchronized List<Long> tokens() {
      return List.copyOf(tokens);
    }
  }

  @Test
  @Timeout(30)
  void statusCountsThePermitsHeldAndTheirNumber() throws Exception {
    Lease first = newClient().semaphore(key, 3).acquire(LONG_WAIT);
    Lease second = newClient().semaphore(key, 3).acquire(LONG_WAIT);
    LockClient observer = newClient();

    LockStatus status = observer.status(key);
    assertThat(status.mode()).as("%s", status).contains(LockStatus.Mode.PERMIT);
    assertThat(status.holders()).as("%s", status).isEqualTo(2);
    assertThat(status.permits()).as("%s", status).hasValue(3);
    assertThat(status.fencingToken()).as("the oldest holder's").hasValue(first.fencingToken());
    assertThat(observer.list(key, 1)).singleElement().satisfies(listed -> {
      assertThat(listed.holders()).isEqualTo(2);
      assertThat(listed.permits()).hasValue(3);
    });
    first.close();
    assertThat(observer.status(key).holders()).isEqualTo(1);
    second.close();
    await().atMost(PROMPTLY).until(() -> entriesAtStore(key) == 0);
  }

  @Test
  @Timeout(60)
  void neverMoreHoldersThanPermitsAndTheyDoOverlap() throws Exception {
    int permits = 3;
    SharedHoldChecker checker = new SharedHoldChecker();
    List<BackgroundCall<Void>> workers = new ArrayList<>();
    for (int c = 0; c < 2; c++) {
      DistributedSemaphore semaphore = newClient().semaphore(key, permits);
      for (int t = 0; t < 3; t++) {
        workers.add(BackgroundCall.start("permit-" + c + "-" + t, () -> {
          for (int i = 0; i < 15; i++) {
            try (Lease permit = semaphore.acquire()) {
              // Waits a moment for company: with every permit a round trip to the store, holders of a short section
              // might never meet on a slow store, though nothing keeps them apart.
              checker.sharedSectionAwaitingAnother(Duration.ofMillis(100));
            }
          }
          return null;
        }));
      }
    }
    awaitAll(workers, Duration.ofSeconds(50));

    assertThat(checker.mostSharedAtOnce()).as("permit holders at once").isBetween(2, permits);
    await().atMost(PROMPTLY).until(() -> entriesAtStore(key) == 0);
  }

  @Test
  @Timeout(30)
  void aCrashedHoldersPermitIsFreedWithinItsTtl() throws Exception {
    LockClient crashing = newCrashableClient();
    Lease abandoned = crashing.semaphore(key, 1, waitingWithTtl(SHORT_TTL)).acquire();
    DistributedSemaphore semaphore = newClient().semaphore(key, 1);
    Crash crashed = crashingNow();
    crash(crashing);
    try (Lease next = semaphore.acquire(LONG_WAIT)) {
      assertFreedWithinBound(crashed, SHORT_TTL);
      assertThat(next.fencingToken()).isGreaterThan(abandoned.fencingToken());
    }
  }

  @Test
  @Timeout(30)
  void aWaitThatTimesOutLeavesNothingBehind() throws Exception {
    LockClient client = newClient();
    Lease held = newClient().semaphore(key, 1).acquire(LONG_WAIT);

    assertThatThrownBy(() -> client.semaphore(key, 1).acquire(Duration.ofMillis(300)))
        .isInstanceOf(LockTimeoutException.class).hasMessageContaining(key);
    held.close();
    await().atMost(PROMPTLY).until(() -> entriesAtStore(key) == 0 && client.keysInUse() == 0);
  }

  @Test
  @Timeout(30)
  void clientsThatDisagreeOnThePermitsGetAClearErrorAndNeverAnExtraPermit() throws Exception {
    Lease held = newClient().semaphore(key, 1).acquire(LONG_WAIT);
    DistributedSemaphore more = newClient().semaphore(key, 2);

    assertThatThrownBy(more::tryAcquire).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(key).hasMessageContaining("1 permit").hasMessageContaining("asks for 2");
    assertThatThrownBy(() -> more.acquire(LONG_WAIT)).isInstanceOf(IllegalArgumentException.class);
    held.close();
    await().atMost(PROMPTLY).until(() -> entriesAtStore(key) == 0);
    try (Lease once = more.acquire(LONG_WAIT)) {
      assertThat(once.isHeld()).as("two permits, once no client counts one").isTrue();
    }
  }

  @Test
  void aSemaphoreNeedsAPermit() {
    LockClient client = newClient();
    assertThatThrownBy(() -> client.semaphore(key, 0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(key).hasMessageContaining("0");
  }
}
