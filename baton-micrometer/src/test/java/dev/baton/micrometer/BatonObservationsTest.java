package dev.baton.micrometer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.Lease;
import dev.baton.LockClient;
import dev.baton.LockOptions;
import dev.baton.LockTimeoutException;
import dev.baton.redis.RedisLockClient;
import dev.baton.testkit.RedisServerExtension;
import io.micrometer.common.KeyValue;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Waits and holds as observations, as a tracer sees them, on a real Redis server. */
@Timeout(30)
class BatonObservationsTest {
  @RegisterExtension
  static final RedisServerExtension redis = new RedisServerExtension();
  private static final Duration PROMPTLY = Duration.ofSeconds(5);

  /** What a tracer would be told: each observation once it stopped, with the thread it started on. */
  private final List<Stopped> stopped = new CopyOnWriteArrayList<>();
  private final ObservationRegistry registry = ObservationRegistry.create();
  private LockClient client;
  private LockClient other;
  private String key;

  private record Stopped(String name, Map<String, String> values, Throwable error, String startedOn) {}

  @BeforeEach
  void connect() {
    registry.observationConfig().observationHandler(new ObservationHandler<Observation.Context>() {
      @Override
      public void onStart(Observation.Context context) {
        context.put("startedOn", Thread.currentThread().getName());
      }

      @Override
      public void onStop(Observation.Context context) {
        Map<String, String> values = context.getAllKeyValues().stream()
            .collect(Collectors.toMap(KeyValue::getKey, KeyValue::getValue));
        stopped.add(new Stopped(context.getName(), values, context.getError(), context.get("startedOn")));
      }

      @Override
      public boolean supportsContext(Observation.Context context) {
        return true;
      }
    });
    client = RedisLockClient.connect(redis.uri());
    other = RedisLockClient.connect(redis.uri());
    BatonObservations.bind(client, registry);
    key = "observed-" + UUID.randomUUID();
  }

  @AfterEach
  void close() {
    client.close();
    other.close();
  }

  @Test
  void anAcquireIsAnObservationOfTheAcquiringThreadAndTheHoldAnotherUntilTheRelease() throws Exception {
    try (Lease lease = client.lock(key).acquire()) {
      assertThat(stopped).singleElement().satisfies(acquire -> {
        assertThat(acquire.name()).isEqualTo("baton.lock.acquire");
        assertThat(acquire.values()).containsEntry("backend", "redis").containsEntry("outcome", "acquired")
            .containsEntry("key", key);
        assertThat(acquire.startedOn()).isEqualTo(Thread.currentThread().getName());
      });
    }
    await().atMost(PROMPTLY).until(() -> stopped.size() == 2);
    assertThat(stopped.get(1).name()).isEqualTo("baton.lock.hold");
    assertThat(stopped.get(1).values()).containsEntry("ended", "released").containsEntry("key", key);
    assertThat(stopped.get(1).error()).isNull();
  }

  @Test
  void readersHoldingTogetherAreObservedApartWhateverOrderTheyEndIn() throws Exception {
    Lease first = client.readWriteLock(key).readLock().acquire();
    FutureTask<Lease> read = new FutureTask<>(() -> client.readWriteLock(key).readLock().acquire());
    new Thread(read, "second-reader").start();
    Lease second = read.get(PROMPTLY.toMillis(), TimeUnit.MILLISECONDS);
    second.close();
    await().atMost(PROMPTLY).until(() -> holds().size() == 1);
    first.close();
    await().atMost(PROMPTLY).until(() -> holds().size() == 2);

    assertThat(holds()).allSatisfy(hold -> assertThat(hold.values()).containsEntry("primitive", "read_lock")
        .containsEntry("ended", "released"));
    assertThat(holds()).extracting(Stopped::startedOn).as("the second reader's hold ends first")
        .containsExactly("second-reader", Thread.currentThread().getName());
  }

  private List<Stopped> holds() {
    return stopped.stream().filter(s -> s.name().equals("baton.lock.hold")).toList();
  }

  @Test
  void aTimedOutAcquireSaysSo() throws Exception {
    try (Lease held = other.lock(key).acquire()) {
      assertThat(client.lock(key).tryAcquire()).isEmpty();
      assertThatThrownBy(() -> client.lock(key).acquire(Duration.ofMillis(50))).isInstanceOf(LockTimeoutException.class);
    }
    assertThat(stopped).hasSize(2).allSatisfy(acquire -> {
      assertThat(acquire.name()).isEqualTo("baton.lock.acquire");
      assertThat(acquire.values()).containsEntry("outcome", "timed_out");
    });
  }

  @Test
  void aLockLostWhileHeldIsTheHoldsError() throws Exception {
    Lease lease = client.lock(key, LockOptions.builder().ttl(Duration.ofMillis(300)).build()).acquire();
    redis.command("DEL", "baton:lock:" + key);
    await().atMost(PROMPTLY).until(() -> stopped.stream().anyMatch(s -> s.name().equals("baton.lock.hold")));
    Stopped hold = stopped.stream().filter(s -> s.name().equals("baton.lock.hold")).findFirst().orElseThrow();
    assertThat(hold.values()).containsEntry("ended", "entry_removed");
    assertThat(hold.error()).hasMessageContaining(key).hasMessageContaining("ENTRY_REMOVED");
    assertThat(lease.isHeld()).isFalse();
  }
}
