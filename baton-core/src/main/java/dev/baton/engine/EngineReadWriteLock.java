package dev.baton.engine;

import dev.baton.DistributedLock;
import dev.baton.DistributedReadWriteLock;

/** A read-write lock: two handles on one key, the read side under the shared rule and the write side exclusive. */
final class EngineReadWriteLock implements DistributedReadWriteLock {
  private final EngineLock read;
  private final EngineLock write;

  EngineReadWriteLock(EngineLock read, EngineLock write) {
    this.read = read;
    this.write = write;
  }

  @Override
  public String key() {
    return write.key();
  }

  @Override
  public DistributedLock readLock() {
    return read;
  }

  @Override
  public DistributedLock writeLock() {
    return write;
  }

  @Override
  public String toString() {
    return "DistributedReadWriteLock{key='" + key() + "'}";
  }
}
