/**
 * Baton's public API: {@link dev.baton.LockClient}, {@link dev.baton.DistributedLock},
 * {@link dev.baton.Lease} and {@link dev.baton.LockOptions}, the same on every store. The stores live in
 * {@code dev.baton.redis} (Redis), {@code dev.baton.zookeeper} (ZooKeeper), {@code dev.baton.etcd} (etcd) and
 * {@code dev.baton.postgres} (PostgreSQL).
 */
package dev.baton;
