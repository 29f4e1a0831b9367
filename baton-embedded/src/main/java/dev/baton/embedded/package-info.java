/**
 * ZooKeeper run inside the JVM on loopback ports: {@link dev.baton.embedded.EmbeddedZooKeeper} standalone
 * and {@link dev.baton.embedded.ZooKeeperEnsemble} with three servers. For {@code baton demo},
 * {@code baton serve} and tests; not for production.
 */
package dev.baton.embedded;
