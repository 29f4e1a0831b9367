/**
 * The in-memory store behind {@code memory://}: a {@link dev.baton.spi.LockBackend} over a map in this JVM, with the
 * hooks the test kit needs (its own time, cutting a client off, removing a holder). Not exported by
 * {@code dev.baton.core}'s module: applications connect through {@link dev.baton.memory.MemoryLockClient}.
 */
package dev.baton.engine.memory;
