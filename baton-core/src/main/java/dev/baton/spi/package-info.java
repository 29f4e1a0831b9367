/**
 * The service-provider interface a lock store implements: {@link dev.baton.spi.LockBackend}, with its
 * {@link dev.baton.spi.Attempt}s and {@link dev.baton.spi.Grant}s, made into a client by
 * {@link dev.baton.spi.ClientFactory}. Beside it, what every store needs to keep Baton's promises the same way: who
 * holds ({@link dev.baton.spi.QueueRule}), the holder written into an entry ({@link dev.baton.spi.HolderRecord}), the
 * statuses a store reports ({@link dev.baton.spi.LockStatuses}), the order of a listing
 * ({@link dev.baton.spi.KeyOrder}) and the loss of a session ({@link dev.baton.spi.LossReporter}). Applications never
 * need this package; store modules, Baton's and others', do.
 */
package dev.baton.spi;
