/**
 * Baton's public API: {@link dev.baton.LockClient}, {@link dev.baton.DistributedLock},
 * {@link dev.baton.Lease} and {@link dev.baton.LockOptions}. Backends live in {@code dev.baton.redis},
 * {@code dev.baton.zookeeper} and {@code dev.baton.etcd}.
 */
package dev.baton;
