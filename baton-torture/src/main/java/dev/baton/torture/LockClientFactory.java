package dev.baton.torture;

import dev.baton.LockClient;

/**
 * Makes clients of one backend for the torture's workers, and for the test kit's contract suite
 * ({@code dev.baton.testkit.LockClientContract}). Implementations need a public no-argument constructor: the torture
 * and the suite instantiate them by name in child JVMs.
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
