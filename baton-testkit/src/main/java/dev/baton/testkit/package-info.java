/**
 * Test support shared by every backend: JUnit extensions that start real servers for a test class, around the
 * launchers of {@code baton-servers} ({@link dev.baton.testkit.RedisServerExtension},
 * {@link dev.baton.testkit.EtcdServerExtension}, {@link dev.baton.testkit.EtcdClusterExtension},
 * {@link dev.baton.testkit.PostgresServerExtension}, ...) and ZooKeeper in this JVM from {@code baton-embedded}
 * ({@link dev.baton.testkit.EmbeddedZooKeeperExtension}, {@link dev.baton.testkit.ZooKeeperEnsembleExtension}); the
 * contract suite every backend passes ({@link dev.baton.testkit.LockClientContract}) and the helpers it is built from.
 *
 * <p>Starting a ZooKeeper server here also stops ZooKeeper from ever calling {@code System.exit} in this JVM (it
 * logs instead) and turns off its admin server, unless {@code zookeeper.admin.enableServer} is set.
 */
package dev.baton.testkit;
