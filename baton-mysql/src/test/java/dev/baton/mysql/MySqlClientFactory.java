package dev.baton.mysql;

import dev.baton.LockClient;
import dev.baton.torture.LockClientFactory;

/** Connects the contract suite's clients, in this JVM and in child JVMs, to the test's MariaDB server. */
public final class MySqlClientFactory implements LockClientFactory {
  @Override
  public LockClient connect(String target) {
    return MySqlLockClient.connect(target);
  }
}
