package dev.baton.bench.suite;

/**
 * One lock implementation as one process uses it: a client that the process's threads share. Closing it closes
 * the client.
 */
interface Contender extends AutoCloseable {
  /**
   * A locker that takes {@code hold} of {@code key} for the calling thread, which must be the only one to use it;
   * fails with {@link UnsupportedOperationException} if the implementation has no such hold.
   */
  Locker locker(String key, Hold hold) throws Exception;

  @Override
  void close() throws Exception;
}
