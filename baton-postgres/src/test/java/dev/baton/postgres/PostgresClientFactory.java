package dev.baton.postgres;

import dev.baton.LockClient;
import dev.baton.torture.LockClientFactory;

/** Connects the contract suite's clients, in this JVM and in child JVMs, to the test's PostgreSQL server. */
public final class PostgresClientFactory implements LockClientFactory {
  @Override
  public LockClient connect(String target) {
    return PostgresLockClient.connect(target);
  }
}
