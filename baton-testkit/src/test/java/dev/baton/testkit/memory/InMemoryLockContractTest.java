package dev.baton.testkit.memory;

import dev.baton.LockClient;
import dev.baton.testkit.LockClientContract;
import dev.baton.torture.LockClientFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** The backend-independent contract against the in-memory store: the engine's behaviour, without a server. */
class InMemoryLockContractTest extends LockClientContract {
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
  protected Class<? extends LockClientFactory> factoryClass() {
    return InMemoryStore.Factory.class;
  }

  @Override
  protected String target() {
    return store.target();
  }

  @Override
  protected boolean reachableFromOtherProcesses() {
    return false;
  }

  @Override
  protected void removeEntryBehindOurBack(String key) {
    store.removeHolder(key);
  }

  @Override
  protected int entriesAtStore(String key) {
    return store.entries(key);
  }

  @Override
  protected boolean listensForReleaseRequestsAtStore(String clientId) {
    return store.listensForReleaseRequests(clientId);
  }

  @Override
  protected LockClient newCrashableClient() {
    return newClient();
  }

  @Override
  protected void crash(LockClient client) {
    store.cutOff(client.clientId());
  }
}
