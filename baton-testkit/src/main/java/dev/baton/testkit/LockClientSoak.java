package dev.baton.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.baton.DistributedLock;
import dev.baton.Lease;
import dev.baton.LockClient;
import dev.baton.LockOptions;
import dev.baton.LockStatus;
import dev.baton.LockTimeoutException;
import dev.baton.torture.LockClientFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A service that runs for weeks and locks one key per order, compressed into a minute: thousands of distinct keys,
 * uncontended, contended by two clients, timed out and interrupted. Afterwards the store holds what it held before
 * (keys or nodes under the prefix, server-side subscriptions and watchers), within the bound the backend states for
 * a released key to leave nothing behind, and the clients keep no state for any key; once closed they leave no
 * thread.
 *
 * <p>Then crashed clients: a JVM that holds hundreds of keys (locks, read locks, permits) and waits on hundreds more
 * behind what the test's client holds (for a lock, for the write lock behind a reader, for a read lock behind a
 * writer, for a permit) is killed with SIGKILL. While the test's client runs on, holding what the dead one waited
 * for and acquiring none of those keys, the store must drop everything of the dead client by itself within the bound
 * the backend states for it; then every key can be taken at once. One crash of 40 keys of each kind runs by default;
 * {@value #CRASHES_PROPERTY} and {@value #CRASH_KEYS_PROPERTY} (system properties, up to 1,000 keys of each kind)
 * make a longer, bigger run.
 *
 * <p>A backend's soak test extends this class and says how to reach its store, how to count what it holds and the
 * two bounds.
 */
public abstract class LockClientSoak {
  /** A short ttl, so that what the store expires by itself goes within a few seconds. */
  protected static final Duration TTL = Duration.ofSeconds(1);
  private static final Duration WAIT = Duration.ofSeconds(10);
  private static final Duration TIMED_OUT_WAIT = Duration.ofMillis(20);
  /** How many crashed clients the crash test runs, one after another. */
  static final String CRASHES_PROPERTY = "baton.soak.crashes";
  /** How many keys of each {@link CrashedEntry} kind a crashed client holds or waits on. */
  static final String CRASH_KEYS_PROPERTY = "baton.soak.crashKeys";
  private static final int MAX_CRASH_KEYS = 1_000;
  /**
   * The ttl of what the test's client holds while a crashed client waited behind it: far longer than a round, so that
   * a dead waiter's state that lives as long as what it waited for is seen to outlive the bound.
   */
  private static final Duration BLOCKER_TTL = Duration.ofMinutes(2);
  /** Beyond the stated bound: a loaded machine's delays in polling and in the store's own timers. */
  private static final Duration SLACK = Duration.ofSeconds(5);
  /**
   * Threads that the JVM, JUnit, Awaitility, an in-process server and the store libraries start and keep for the
   * process, not per client (the JDK's HTTP keep-alive timer serves a soak test's own reads of a server's metrics).
   */
  private static final List<String> NOT_THE_CLIENTS =
      List.of("junit-", "ForkJoinPool", "Attach Listener", "process reaper", "Common-Cleaner", "surefire-",
          "Thread-", "globalEventExecutor", "grpc-", "ObjectCleanerThread", "lettuce-timer", "awaitility",
          "NIOWorkerThread", "Keep-Alive-Timer");

  private final String run = UUID.randomUUID().toString().substring(0, 8);

  /** The factory the soak makes its two clients with. */
  protected abstract Class<? extends LockClientFactory> factoryClass();

  /** Where the store is, as the factory expects it. */
  protected abstract String target();

  /**
   * What the store holds for Baton now, by kind: for example {@code keys} under the prefix, {@code channels} with a
   * subscriber, {@code watchers}. Read from the server, not from a client.
   */
  protected abstract Map<String, Long> storeInventory();

  /** How long after its last release a key may leave something at the store: the bound docs/guarantees.md states. */
  protected abstract Duration leftoverBound();

  /**
   * How long after a client's crash the store may still hold something of it (its held entries and its waiters'),
   * while another client runs: the bound docs/guarantees.md states for the test's factory's settings. Empty where the
   * store states none, which skips the crash test.
   */
  protected abstract Optional<Duration> crashedClientBound();

  /**
   * The ttl of what a crashed client holds and waits with: {@link #TTL} by default. A store whose waiters cost it a
   * transaction every third of their ttl (a table) may take a longer one, and states its bound for it.
   */
  protected Duration crashedClientTtl() {
    return TTL;
  }

  /** How many keys of each {@link CrashedEntry} kind a crashed client takes by default; a slower store may take fewer. */
  protected int crashKeysPerKind() {
    return 40;
  }

  /** How many distinct keys each phase uses; a slower store may use fewer. */
  protected int uncontendedKeys() {
    return 2_000;
  }

  @Test
  @Timeout(180)
  void thousandsOfKeysLeaveNothingBehind() throws Exception {
    Map<String, Long> storeBefore = storeInventory();
    Set<Thread> threadsBefore = Set.copyOf(Thread.getAllStackTraces().keySet());
    LockOptions options = LockOptions.builder().ttl(TTL).waitTime(WAIT).build();
    LockClient first = connect();
    LockClient second = connect();
    try {
      uncontended(first, options);
      contended(first, second, options);
      timedOut(first, second, options);
      interrupted(first, second, options);
      assertThat(first.keysInUse()).as("keys the first client keeps state for").isZero();
      assertThat(second.keysInUse()).as("keys the second client keeps state for").isZero();
      await("the store back to what it held before, within the stated bound")
          .atMost(leftoverBound().plusSeconds(5))
          .untilAsserted(() -> assertThat(storeInventory()).isEqualTo(storeBefore));
    } finally {
      first.close();
      second.close();
    }
    await("the clients' threads gone after close").atMost(WAIT)
        .untilAsserted(() -> assertThat(newThreads(threadsBefore)).isEmpty());
  }

  @Test
  void crashedClientsLeaveNothingBehind() {
    Optional<Duration> bound = crashedClientBound();
    assumeTrue(bound.isPresent(), "the store states no bound for a crashed client's state");
    int crashes = positiveProperty(CRASHES_PROPERTY, 1, Integer.MAX_VALUE);
    int keysPerKind = positiveProperty(CRASH_KEYS_PROPERTY, crashKeysPerKind(), MAX_CRASH_KEYS);
    Duration limit = settling(keysPerKind).multipliedBy(3).plus(bound.get()).plus(SLACK).multipliedBy(crashes);
    assertTimeoutPreemptively(limit, () -> {
      Map<String, Long> storeBefore = storeInventory();
      LockClient running = connect();
      LockClient other = connect();
      try {
        for (int crash = 1; crash <= crashes; crash++) {
          Duration gone = crash(running, other, "soak/" + run + "/crash-" + crash, keysPerKind, bound.get());
          System.out.printf("%s: crashed client %d of %d (%d keys of each kind) gone from the store %d ms after the"
              + " SIGKILL (bound %d ms)%n", getClass().getSimpleName(), crash, crashes, keysPerKind, gone.toMillis(),
              bound.get().toMillis());
        }
        assertThat(running.keysInUse()).as("keys the running client keeps state for").isZero();
        assertThat(other.keysInUse()).as("keys the other client keeps state for").isZero();
        await("the store back to what it held before, within the stated bound")
            .atMost(leftoverBound().plus(SLACK))
            .untilAsserted(() -> assertThat(storeInventory()).isEqualTo(storeBefore));
      } finally {
        running.close();
        other.close();
      }
    });
  }

  /**
   * One crashed client: {@code running} holds what it is to wait for, it takes its keys and is killed; {@code
   * running} goes on holding. How long the store took to drop everything of it.
   */
  private Duration crash(LockClient running, LockClient other, String round, int keysPerKind, Duration bound)
      throws Exception {
    LockOptions blocking = LockOptions.builder().ttl(BLOCKER_TTL).waitTime(WAIT).build();
    List<Lease> blockers = new ArrayList<>();
    List<String> waited = new ArrayList<>();
    for (CrashedEntry kind : CrashedEntry.values()) {
      for (int i = 0; i < keysPerKind; i++) {
        blockers.addAll(kind.block(running, kind.key(round, i), blocking));
        if (kind.waits()) {
          waited.add(kind.key(round, i));
        }
      }
    }
    Map<String, Long> withBlockers = storeInventory();
    long killedAt;
    Duration settling = settling(keysPerKind);
    try (ForkedMain child = ForkedMain.start(CrashingClientMain.class,
        List.of(factoryClass().getName(), target(), round, Integer.toString(keysPerKind),
            Long.toString(crashedClientTtl().toMillis())),
        CrashingClientMain.READY, settling, "take its keys")) {
      await("the crashed client waiting at the store on every key it waits on").atMost(settling)
          .untilAsserted(() -> assertThat(keysWithoutWaiters(other, round, waited))
              .as("keys where the child waits at no store entry; its last output:%n%s", child.lastOutput())
              .isEmpty());
      killedAt = System.nanoTime(); // before the SIGKILL: the measured time can only be longer than the real one
      child.kill();
    }
    await("nothing of the crashed client at the store within " + bound.toMillis() + " ms, while another runs")
        .atMost(bound.plus(SLACK))
        .untilAsserted(() -> assertThat(storeInventory()).isEqualTo(withBlockers));
    Duration gone = Duration.ofNanos(System.nanoTime() - killedAt);
    LockOptions atOnce = LockOptions.builder().ttl(TTL).build();
    for (CrashedEntry kind : CrashedEntry.values()) {
      if (!kind.waits()) {
        takeAtOnce(other, kind, round, keysPerKind, atOnce);
      }
    }
    blockers.forEach(Lease::close);
    for (CrashedEntry kind : CrashedEntry.values()) {
      if (kind.waits()) {
        takeAtOnce(other, kind, round, keysPerKind, atOnce);
      }
    }
    return gone;
  }

  /**
   * How long a crashed client may take to start and take its keys, one after another, and the test to see its waits:
   * generous, as a loaded machine needs.
   */
  private static Duration settling(int keysPerKind) {
    return Duration.ofSeconds(60).plusMillis(100L * keysPerKind * CrashedEntry.values().length);
  }

  /** The keys of {@code waited} whose status at the store counts no waiter. */
  private static List<String> keysWithoutWaiters(LockClient client, String round, List<String> waited) {
    Map<String, Integer> waiters = client.list(round + "-", MAX_CRASH_KEYS * CrashedEntry.values().length).stream()
        .collect(Collectors.toMap(LockStatus::key, LockStatus::waiters));
    return waited.stream().filter(key -> waiters.getOrDefault(key, 0) == 0).toList();
  }

  /** Takes and releases every key of {@code kind} in the round without waiting. */
  private static void takeAtOnce(LockClient client, CrashedEntry kind, String round, int keysPerKind,
      LockOptions options) throws InterruptedException {
    for (int i = 0; i < keysPerKind; i++) {
      kind.takeAtOnce(client, kind.key(round, i), options).forEach(Lease::close);
    }
  }

  private static int positiveProperty(String name, int byDefault, int most) {
    String value = System.getProperty(name);
    if (value == null) {
      return byDefault;
    }
    try {
      int number = Integer.parseInt(value.trim());
      if (number >= 1 && number <= most) {
        return number;
      }
    } catch (NumberFormatException e) {
      // Refused below, with the range.
    }
    throw new IllegalArgumentException("The system property " + name + " must be a whole number from 1 to " + most
        + ", but was '" + value + "'.");
  }

  /** Each key once, through a lease or the {@link java.util.concurrent.locks.Lock} view, one after another. */
  private void uncontended(LockClient client, LockOptions options) throws InterruptedException {
    for (int i = 0; i < uncontendedKeys(); i++) {
      DistributedLock lock = client.lock(key("uncontended", i), options);
      if (i % 2 == 0) {
        try (Lease lease = lock.acquire()) {
          assertThat(lease.isHeld()).isTrue();
        }
      } else {
        lock.lock();
        lock.unlock();
      }
    }
  }

  /** Two clients, two threads each, taking turns on each key; the keys run four at a time. */
  private void contended(LockClient first, LockClient second, LockOptions options) throws Exception {
    ExecutorService threads = Executors.newFixedThreadPool(8);
    AtomicInteger holds = new AtomicInteger();
    try {
      List<Future<?>> turns = new ArrayList<>();
      for (int i = 0; i < uncontendedKeys() / 10; i++) {
        String key = key("contended", i);
        for (LockClient client : List.of(first, second, first, second)) {
          turns.add(threads.submit(() -> {
            try (Lease lease = client.lock(key, options).acquire()) {
              holds.incrementAndGet();
            }
            return null;
          }));
        }
        if (turns.size() >= 16) {
          awaitAll(turns);
        }
      }
      awaitAll(turns);
    } finally {
      threads.shutdownNow();
    }
    assertThat(holds.get()).isEqualTo(uncontendedKeys() / 10 * 4);
  }

  /** A key held by one client; the other waits a moment, gives up, and must leave nothing at the store. */
  private void timedOut(LockClient holder, LockClient waiter, LockOptions options) throws InterruptedException {
    for (int i = 0; i < uncontendedKeys() / 20; i++) {
      String key = key("timed-out", i);
      try (Lease held = holder.lock(key, options).acquire()) {
        DistributedLock other = waiter.lock(key, options.withWaitTime(TIMED_OUT_WAIT));
        assertThatThrownBy(other::acquire).isInstanceOf(LockTimeoutException.class);
        assertThat(other.tryAcquire()).isEmpty();
      }
    }
  }

  /** A key held by one client; the other's unbounded wait is cancelled, which abandons it. */
  private void interrupted(LockClient holder, LockClient waiter, LockOptions options) throws Exception {
    for (int i = 0; i < uncontendedKeys() / 40; i++) {
      String key = key("interrupted", i);
      try (Lease held = holder.lock(key, options).acquire()) {
        CompletableFuture<Lease> waiting = waiter.lock(key, options.withWaitTime(null)).acquireAsync();
        await("the waiter waiting").atMost(WAIT).until(() -> waiter.keysInUse() == 1);
        waiting.cancel(true);
      }
    }
    await("every cancelled waiter done").atMost(WAIT).until(() -> waiter.keysInUse() == 0);
  }

  private LockClient connect() {
    try {
      return factoryClass().getDeclaredConstructor().newInstance().connect(target());
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(factoryClass().getName() + " needs a public no-argument constructor.", e);
    }
  }

  private String key(String phase, int i) {
    return "soak/" + run + "/" + phase + "/order-" + i;
  }

  private static void awaitAll(List<Future<?>> futures) throws Exception {
    for (Future<?> future : futures) {
      future.get(WAIT.toMillis() * 2, TimeUnit.MILLISECONDS);
    }
    futures.clear();
  }

  private static List<String> newThreads(Set<Thread> before) {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(thread -> !before.contains(thread))
        .map(Thread::getName)
        .filter(name -> NOT_THE_CLIENTS.stream().noneMatch(name::startsWith))
        .toList();
  }
}
