package dev.baton.spi;

/**
 * Receives the requests to release that reach this backend's client ({@link LockBackend#requestRelease}): another
 * client, or this one, asked the holder of one of its entries to let go. A request is a hint: the engine tells the
 * entry's leases, and nothing is released unless their holder's code does it.
 */
@FunctionalInterface
public interface ReleaseRequestListener {

  /**
   * Someone asked the holder of this client's entry of {@code key} written under {@code ownerId} to release it. Called
   * on a store's I/O thread: it must not block. An entry this client no longer holds is ignored.
   */
  void requested(String key, String ownerId);
}
