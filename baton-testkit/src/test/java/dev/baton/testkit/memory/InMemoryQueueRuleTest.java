package dev.baton.testkit.memory;

import dev.baton.spi.LockBackend;
import dev.baton.testkit.QueueRuleContract;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** Shared entries, permits and an exclusive entry meeting them, on the in-memory store. */
class InMemoryQueueRuleTest extends QueueRuleContract {
  private static InMemoryStore store;

  @BeforeAll
  static void openStore() {
    store = InMemoryStore.create();
  }

  @AfterAll
  static void closeStore() {
    store.close();
  }

  @Override
  protected LockBackend newBackend() {
    return store.newBackend();
  }
}
