/**
 * A lock store inside this JVM, {@code memory://}: {@link dev.baton.memory.MemoryLockClient} connects clients that
 * share it by name, so that code that locks is tested without a server.
 */
package dev.baton.memory;
