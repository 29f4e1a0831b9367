/**
 * Baton's API ({@code dev.baton}: clients, locks, leases, options), its SPI for store modules
 * ({@code dev.baton.spi}) and the store inside the JVM that tests lock on ({@code dev.baton.memory}, with its fake
 * time). The engine that turns a store's protocol into a lock client is in this module too, and reachable from none of
 * them: store modules make clients through {@link dev.baton.spi.ClientFactory}; the in-memory store's implementation
 * ({@code dev.baton.engine.memory}) is not exported either. Baton's own plumbing ({@code dev.baton.internal}: the
 * checks of settings, the hiding of secrets) is exported to Baton's modules only.
 */
@SuppressWarnings("module") // Baton's modules, named in "exports ... to", are built after this one.
module dev.baton.core {
  requires org.slf4j;

  exports dev.baton;
  exports dev.baton.spi;
  exports dev.baton.memory;
  exports dev.baton.internal to
      dev.baton.redis,
      dev.baton.zookeeper,
      dev.baton.etcd,
      dev.baton.jdbc,
      dev.baton.postgres,
      dev.baton.mysql,
      dev.baton.connect,
      dev.baton.spring.boot,
      dev.baton.torture;
}
