package dev.baton.bench.suite;

/**
 * One lock implementation as one process uses it: a client that the process's threads share. Closing it closes
 * the client.
 */
interface Contender extends AutoCloseable {
  /** A locker of {@code key} for the calling thread, which must be the only one to use it. */
  Locker locker(String key) throws Exception;

  @Override
  void close() throws Exception;
}
