/**
 * A test's handle on baton-core's in-memory store ({@code memory://}): its own store, on a fake clock if it likes,
 * with hooks to cut a client off or remove a holder, so that the contract suite and engine tests run without a server
 * process.
 */
package dev.baton.testkit.memory;
