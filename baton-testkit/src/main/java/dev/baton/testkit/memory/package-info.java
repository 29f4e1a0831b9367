/**
 * An in-memory store for Baton's engine: the {@link dev.baton.spi.LockBackend} of a lock server that lives in the
 * test's own JVM, so that the contract suite and engine tests run without a server process.
 */
package dev.baton.testkit.memory;
