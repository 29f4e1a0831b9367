package dev.baton.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.LockHolder.MultiLock;
import dev.baton.LockOptions;
import dev.baton.Primitive;
import dev.baton.engine.memory.MemoryStore;
import dev.baton.memory.FakeTicker;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A multi-lock's keys taken in one request ({@link FreeKeys}), on the in-memory store, which can take several. */
@Timeout(30)
class FreeKeysTest {
  private final MemoryStore store = MemoryStore.create("free-keys-" + UUID.randomUUID(), null);
  private final CountingBackend backend = new CountingBackend(store.newBackend());
  private final Engine engine = new Engine(backend, "free-keys-test", new FakeTicker());
  private final List<String> keys = List.of("free-keys/a/" + UUID.randomUUID(), "free-keys/b/" + UUID.randomUUID());

  @AfterEach
  void closeAll() {
    engine.close();
    store.close();
  }

  /**
   * The client closes while the turns are taken, after the first key's turn and before the second's: the second's
   * queue, retained then, is closed, and its turn cannot be taken. Every key retained is let go of, the second too.
   */
  @Test
  void aCloseWhileTheTurnsAreTakenLetsGoOfEveryKey() {
    backend.takesInOrder = true;
    backend.checkingAcquisition = key -> {
      if (key.equals(keys.get(1))) {
        engine.close();
      }
    };

    assertThatThrownBy(() -> FreeKeys.acquire(engine, keys, Primitive.MULTI_LOCK, LockOptions.defaults(),
        Optional.of(new MultiLock(keys.size(), "free-keys-test"))))
        .isInstanceOf(IllegalStateException.class);
    assertThat(engine.keys().size()).as("keys still retained").isZero();
  }
}
