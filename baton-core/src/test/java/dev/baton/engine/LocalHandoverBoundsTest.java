package dev.baton.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Lease;
import dev.baton.LockClient;
import dev.baton.LockOptions;
import dev.baton.engine.memory.MemoryStore;
import dev.baton.memory.FakeTicker;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The engine's bounds on a chain of local hand-overs, exactly, on the in-memory store and fake time: a fair lock
 * changes hands 64 times in a row between the threads of one client before it goes back to the store, a non-fair one
 * 16 times (the contract only checks that chains are bounded; the numbers are the engine's tuning, not API).
 */
@Timeout(30)
class LocalHandoverBoundsTest {
  /** A wait, in fake time, that never ends: the test does not advance time. */
  private static final Duration WAIT = Duration.ofSeconds(10);
  /** How long, in real time, a thread may take to do what it was started for. */
  private static final Duration PROMPTLY = Duration.ofSeconds(5);
  /** How long, in real time, a thread waits in the client's local queue before the test takes it as queued. */
  private static final Duration QUEUED = Duration.ofMillis(30);
  /** More hand-overs than any chain is long. */
  private static final int WATCHED = 100;

  private final MemoryStore store = MemoryStore.create("handover-bounds-" + UUID.randomUUID(), new FakeTicker());

  @AfterEach
  void closeStore() {
    store.close();
  }

  @Test
  void aFairChainIs64HandOversLong() throws Exception {
    assertThat(holdersOfTheFirstToken(LockOptions.defaults())).isEqualTo(1 + 64);
  }

  @Test
  void aNonFairChainIs16HandOversLong() throws Exception {
    assertThat(holdersOfTheFirstToken(LockOptions.defaults().toBuilder().fair(false).build())).isEqualTo(1 + 16);
  }

  /**
   * How many holders of one client shared the first grant, handed over from thread to thread (each waiting for the
   * key before the holder releases) until a lease came with another token, once another client had tried the key.
   */
  private int holdersOfTheFirstToken(LockOptions options) throws Exception {
    try (LockClient client = store.connect(options); LockClient other = store.connect(options)) {
      Lease held = client.lock("hot").acquire();
      assertThat(other.lock("hot").tryAcquire()).as("another client's try, while the first holds").isEmpty();
      long firstToken = held.fencingToken();
      int holders = 1;
      for (int i = 0; i < WATCHED && held.fencingToken() == firstToken; i++) {
        BackgroundCall<Lease> next = BackgroundCall.start("holder-" + i, () -> client.lock("hot").acquire(WAIT));
        next.awaitBlocked(QUEUED);
        held.close();
        held = next.result(PROMPTLY);
        holders += held.fencingToken() == firstToken ? 1 : 0;
      }
      held.close();
      return holders;
    }
  }
}
