/**
 * Real servers started as child processes on loopback and free ports, each stopped by its own process id and killed
 * at JVM exit if still running: Redis alone ({@link dev.baton.servers.RedisServer}), as a cluster
 * ({@link dev.baton.servers.RedisClusterSet}), under Sentinel ({@link dev.baton.servers.RedisSentinelSet}) or as a
 * primary with a replica behind a moving address ({@link dev.baton.servers.RedisReplicatedPair}); etcd alone
 * ({@link dev.baton.servers.EtcdServer}, optionally with TLS, {@link dev.baton.servers.TlsCertificates}) or as three
 * members ({@link dev.baton.servers.EtcdCluster}); PostgreSQL ({@link dev.baton.servers.PostgresServer}); MariaDB
 * alone ({@link dev.baton.servers.MariaDbServer}) or as a Galera cluster ({@link dev.baton.servers.GaleraCluster}). A
 * {@link dev.baton.servers.TcpProxy} sits in front of any of them to break or stall connections.
 *
 * <p>For tests (the test kit wraps each in a JUnit extension), benchmarks and {@code baton torture}; not for
 * production. The servers' binaries must be installed: a missing one is named with the package that installs it.
 * No test framework: a set-up that does not reach the state it waits for throws {@link IllegalStateException}.
 */
package dev.baton.servers;
