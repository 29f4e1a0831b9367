/**
 * The service-provider interface a lock store implements: {@link dev.baton.spi.LockBackend}. Users of
 * Baton never need it; backend modules do.
 */
package dev.baton.spi;
