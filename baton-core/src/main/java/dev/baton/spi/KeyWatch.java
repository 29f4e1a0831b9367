package dev.baton.spi;

/** A store's watch on one key's entries, made by {@link LockBackend#watchKey}; closed by the engine. */
@FunctionalInterface
public interface KeyWatch extends AutoCloseable {

  /** Stops the watch and frees what it holds at the store. Idempotent; never throws. */
  @Override
  void close();
}
