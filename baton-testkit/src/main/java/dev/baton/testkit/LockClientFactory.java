package dev.baton.testkit;

import dev.baton.LockClient;

/**
 * Makes clients of one backend for the {@link LockClientContract}. Implementations need a public no-argument
 * constructor: the suite also instantiates them by name in child JVMs ({@link LockHolderMain}).
 */
@FunctionalInterface
public interface LockClientFactory {

  /**
   * Connects a new client.
   *
   * @param target where the store is, in the backend's own form, e.g. {@code redis://127.0.0.1:6379}
   */
  LockClient connect(String target);
}
