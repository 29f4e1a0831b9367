/** Baton's ZooKeeper backend: {@link dev.baton.zookeeper.ZooKeeperLockClient}. */
package dev.baton.zookeeper;
