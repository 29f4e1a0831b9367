/**
 * Baton's primitives as Project Reactor publishers: {@link dev.baton.reactor.ReactiveLocks} for locks and either side
 * of a read-write lock, {@link dev.baton.reactor.ReactiveSemaphores} for permits,
 * {@link dev.baton.reactor.ReactiveLeadership} for leadership terms and {@link dev.baton.reactor.ReactiveLeases} to
 * release a lease or hear of its loss without blocking a Reactor thread.
 */
package dev.baton.reactor;
