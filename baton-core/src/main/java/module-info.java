/**
 * Baton's API ({@code dev.baton}: clients, locks, leases, options) and its SPI for store modules
 * ({@code dev.baton.spi}). The engine that turns a store's protocol into a lock client is in this module too, and
 * reachable from neither: store modules make clients through {@link dev.baton.spi.ClientFactory}.
 */
module dev.baton.core {
  requires org.slf4j;

  exports dev.baton;
  exports dev.baton.spi;
}
