package dev.baton.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.Lease;
import dev.baton.LockClient;
import dev.baton.LockOptions;
import dev.baton.LockTimeoutException;
import dev.baton.testkit.memory.InMemoryStore;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The engine's bounds on a chain of local hand-overs, exactly, on the in-memory store: a fair lock changes hands 64
 * times in a row between the threads of one client before it goes back to the store, a non-fair one 16 times (the
 * contract only checks that chains are bounded; the numbers are the engine's tuning, not API).
 */
@Timeout(60)
class LocalHandoverBoundsTest {
  private final InMemoryStore store = InMemoryStore.create();

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

  /** How many holders of one client shared the first grant while another client waited for the lock. */
  private int holdersOfTheFirstToken(LockOptions options) throws Exception {
    try (LockClient client = store.connect(options); LockClient other = store.connect(options)) {
      Lease held = client.lock("hot").acquire();
      assertThatThrownBy(() -> other.lock("hot").acquire(Duration.ofMillis(50))).isInstanceOf(LockTimeoutException.class);
      ContractGroup.Chain chain = ContractGroup.handOverUntilTheTokenChanges(client, "hot", held, 100);
      chain.last().close();
      return chain.holders();
    }
  }
}
