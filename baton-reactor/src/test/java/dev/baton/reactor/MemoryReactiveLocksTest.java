package dev.baton.reactor;

import dev.baton.LockClient;
import dev.baton.memory.MemoryLockClient;
import java.util.UUID;

/** {@link ReactiveLockContract} on baton-core's in-memory store, one store per test. */
class MemoryReactiveLocksTest extends ReactiveLockContract {
  private final String store = "reactor-" + UUID.randomUUID();

  @Override
  LockClient connect() {
    return MemoryLockClient.connect("memory://" + store);
  }
}
