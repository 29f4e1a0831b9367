/**
 * Test support shared by every backend: real servers, either child processes
 * ({@link dev.baton.testkit.RedisServer}; etcd alone, {@link dev.baton.testkit.EtcdServer}, or three members,
 * {@link dev.baton.testkit.EtcdCluster}, each with a JUnit extension) or ZooKeeper in this JVM
 * ({@link dev.baton.testkit.EmbeddedZooKeeperExtension},
 * {@link dev.baton.testkit.ZooKeeperEnsembleExtension}, on {@code baton-embedded}); a {@link dev.baton.testkit.TcpProxy} to break connections to them;
 * the contract suite every backend passes ({@link dev.baton.testkit.LockClientContract}) and the helpers it is
 * built from.
 *
 * <p>Starting a ZooKeeper server here also stops ZooKeeper from ever calling {@code System.exit} in this JVM (it
 * logs instead) and turns off its admin server, unless {@code zookeeper.admin.enableServer} is set.
 */
package dev.baton.testkit;
