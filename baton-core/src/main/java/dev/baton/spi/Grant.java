package dev.baton.spi;

/** A lock held at the store: what the engine passes back to renew and release it. */
public interface Grant {

  /** The request the lock was granted for. */
  AcquireRequest request();

  /** The store's fencing token for this acquisition; it grows with every acquisition of the key. */
  long fencingToken();
}
