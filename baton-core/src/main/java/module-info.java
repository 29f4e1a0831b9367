/**
 * Baton's API ({@code dev.baton}: clients, locks, leases, options), its SPI for store modules
 * ({@code dev.baton.spi}) and the store inside the JVM that tests lock on ({@code dev.baton.memory}). The engine that
 * turns a store's protocol into a lock client is in this module too, and reachable from none of them: store modules
 * make clients through {@link dev.baton.spi.ClientFactory}; the in-memory store's implementation
 * ({@code dev.baton.engine.memory}) is not exported either.
 */
module dev.baton.core {
  requires org.slf4j;

  exports dev.baton;
  exports dev.baton.spi;
  exports dev.baton.memory;
}
