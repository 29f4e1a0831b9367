package dev.baton.zookeeper;

import java.time.Duration;
import java.util.List;
import org.apache.zookeeper.data.ACL;

/**
 * How a client reaches ZooKeeper.
 *
 * @param connectString {@code host:port[,host:port...][/chroot]}
 * @param digest {@code user:password} for digest authentication, or null
 * @param compat whose locks the client's locks exclude besides Baton's
 */
record ZooKeeperSettings(String connectString, Duration sessionTimeout, Duration connectTimeout, String digest,
    List<ACL> acl, String namespace, ZooKeeperLockClient.Compat compat) {}
