package dev.baton.bench.suite;

import dev.baton.etcd.EtcdLockClient;
import dev.baton.mysql.MySqlLockClient;
import dev.baton.postgres.PostgresLockClient;
import dev.baton.redis.RedisLockClient;
import dev.baton.zookeeper.ZooKeeperLockClient;
import java.util.Map;

/** Every lock implementation the suite measures, and how to open one on a run's servers. */
enum Implementation {
  BATON_REDIS(Store.REDIS, Role.BATON, baton()),
  BATON_REDIS_LOCK_VIEW(Store.REDIS, Role.BATON, Map.of(Hold.LOCK, "Baton (Lock view)")),
  /** Baton's single locks, each key of a multi-lock's set taken alone in key order: a multi-lock done by hand. */
  BATON_REDIS_SINGLE_LOCKS(Store.REDIS, Role.BATON, Map.of(Hold.MULTI_LOCK, "Baton lock() per key, in key order")),
  REDISSON(Store.REDIS, Role.PEER, Map.of(Hold.LOCK, "Redisson RLock",
      Hold.READ_LOCK, "Redisson RReadWriteLock read lock", Hold.SEMAPHORE, "Redisson RPermitExpirableSemaphore",
      Hold.MULTI_LOCK, "Redisson RedissonMultiLock")),
  RAW_REDIS(Store.REDIS, Role.RAW, Map.of(Hold.LOCK, "raw: 2 x EVALSHA")),
  /** Baton's mutex with {@link BatonContender#LINGER}: a re-acquire in the same client makes no round trip. */
  BATON_REDIS_LINGERING(Store.REDIS, Role.BATON, lingering()),
  BATON_ZOOKEEPER(Store.ZOOKEEPER, Role.BATON, baton()),
  /** The Lock methods, whose unlock() sends the release ahead of its answer on ZooKeeper; a Lease's close() waits. */
  BATON_ZOOKEEPER_LOCK_VIEW(Store.ZOOKEEPER, Role.BATON, Map.of(Hold.LOCK, "Baton (Lock view)")),
  BATON_ZOOKEEPER_LINGERING(Store.ZOOKEEPER, Role.BATON, lingering()),
  /** As {@link #BATON_REDIS_SINGLE_LOCKS}, on ZooKeeper. */
  BATON_ZOOKEEPER_SINGLE_LOCKS(Store.ZOOKEEPER, Role.BATON,
      Map.of(Hold.MULTI_LOCK, "Baton lock() per key, in key order")),
  CURATOR(Store.ZOOKEEPER, Role.PEER, Map.of(Hold.LOCK, "Curator InterProcessMutex",
      Hold.READ_LOCK, "Curator InterProcessReadWriteLock read lock", Hold.SEMAPHORE, "Curator InterProcessSemaphoreV2",
      Hold.MULTI_LOCK, "Curator InterProcessMultiLock")),
  RAW_ZOOKEEPER(Store.ZOOKEEPER, Role.RAW, Map.of(Hold.LOCK, "raw: create + delete")),
  BATON_ETCD(Store.ETCD, Role.BATON, baton()),
  BATON_ETCD_LINGERING(Store.ETCD, Role.BATON, lingering()),
  /** jetcd's {@code Lock} on the jetcd line that Baton uses, the one its users get: the peer of the targets. */
  JETCD_LOCK(Store.ETCD, Role.PEER, Map.of(Hold.LOCK, "jetcd Lock 0.7.x (a lease per thread)")),
  /** jetcd's {@code Lock} on jetcd's current line, in a JVM of its own. */
  JETCD_LOCK_CURRENT(Store.ETCD, Role.PEER,
      Map.of(Hold.LOCK, "jetcd Lock 0.8.x (a lease per thread, JVM of its own)")),
  RAW_ETCD(Store.ETCD, Role.RAW, Map.of(Hold.LOCK, "raw: put with lease + delete")),
  BATON_POSTGRES(Store.POSTGRES, Role.BATON, baton()),
  BATON_POSTGRES_LINGERING(Store.POSTGRES, Role.BATON, lingering()),
  JDBC_LOCK_REGISTRY(Store.POSTGRES, Role.PEER, Map.of(Hold.LOCK, "Spring Integration JdbcLockRegistry")),
  SHEDLOCK_JDBC(Store.POSTGRES, Role.PEER, Map.of(Hold.LOCK, "ShedLock JdbcTemplateLockProvider (try-lock only)")),
  RAW_POSTGRES(Store.POSTGRES, Role.RAW, Map.of(Hold.LOCK, "raw: INSERT + DELETE")),
  BATON_MYSQL(Store.MYSQL, Role.BATON, baton()),
  /** Baton on an application's HikariCP pool, whose connections run one statement a call (bench/sql-cycle-cost). */
  BATON_MYSQL_DATA_SOURCE(Store.MYSQL, Role.BATON, Map.of(Hold.LOCK, "Baton on a HikariCP DataSource")),
  /** Spring Integration's {@code JdbcLockRegistry} on MariaDB, with its DDL for MySQL. */
  JDBC_LOCK_REGISTRY_MYSQL(Store.MYSQL, Role.PEER, Map.of(Hold.LOCK, "Spring Integration JdbcLockRegistry")),
  SHEDLOCK_JDBC_MYSQL(Store.MYSQL, Role.PEER, Map.of(Hold.LOCK, "ShedLock JdbcTemplateLockProvider (try-lock only)")),
  RAW_MYSQL(Store.MYSQL, Role.RAW, Map.of(Hold.LOCK, "raw: INSERT + DELETE")),
  BATON_REDIS_CLUSTER(Store.REDIS_CLUSTER, Role.BATON, baton()),
  /** Baton with the replica acknowledgement that Redisson's cluster mode always asks for: a WAIT after each grant. */
  BATON_REDIS_CLUSTER_ACKED(Store.REDIS_CLUSTER, Role.BATON,
      Map.of(Hold.LOCK, "Baton, min-replicas=1 (WAIT per grant and renewal)")),
  REDISSON_CLUSTER(Store.REDIS_CLUSTER, Role.PEER, Map.of(Hold.LOCK, "Redisson RLock (cluster mode)")),
  RAW_REDIS_CLUSTER(Store.REDIS_CLUSTER, Role.RAW, Map.of(Hold.LOCK, "raw: 2 x EVALSHA (Lettuce cluster)"));

  /** What an implementation is to the comparison. */
  enum Role {
    /** Baton itself. */
    BATON,
    /** The store's usual Java lock, Baton's peer. */
    PEER,
    /** The least a lock cycle costs at the store: not a lock, a baseline. */
    RAW
  }

  private final Store store;
  private final Role role;
  private final Map<Hold, String> labels;

  Implementation(Store store, Role role, Map<Hold, String> labels) {
    this.store = store;
    this.role = role;
    this.labels = labels;
  }

  private static Map<Hold, String> baton() {
    return Map.of(Hold.LOCK, "Baton (lease)", Hold.READ_LOCK, "Baton read lock (lease)",
        Hold.WRITE_LOCK, "Baton write lock (lease)", Hold.SEMAPHORE, "Baton semaphore (lease)",
        Hold.MULTI_LOCK, "Baton multiLock (lease)");
  }

  private static Map<Hold, String> lingering() {
    return Map.of(Hold.LOCK, "Baton with linger(5s) (lease)");
  }

  /** Whether its mutexes linger: measured in the linger scenario only, not as the store's everyday mutex. */
  boolean lingers() {
    return this == BATON_REDIS_LINGERING || this == BATON_ZOOKEEPER_LINGERING || this == BATON_ETCD_LINGERING
        || this == BATON_POSTGRES_LINGERING;
  }

  Store store() {
    return store;
  }

  Role role() {
    return role;
  }

  /** The implementation's name on the page, as a mutex. */
  String label() {
    return label(Hold.LOCK);
  }

  /** The implementation's name on the page, as what holds {@code hold}; null if it has no such hold. */
  String label(Hold hold) {
    return labels.get(hold);
  }

  /** A new client of this implementation, connected to the run's servers. */
  Contender open(Endpoints endpoints) throws Exception {
    return switch (this) {
      case BATON_REDIS -> new BatonContender(RedisLockClient.connect(endpoints.redisUri()), false);
      case BATON_REDIS_LOCK_VIEW -> new BatonContender(RedisLockClient.connect(endpoints.redisUri()), true);
      case BATON_REDIS_LINGERING -> BatonContender.lingering(RedisLockClient.connect(endpoints.redisUri()));
      case BATON_REDIS_SINGLE_LOCKS -> new SingleLocksInOrderContender(RedisLockClient.connect(endpoints.redisUri()));
      case REDISSON -> RedissonContender.oneServer(endpoints.redisUri());
      case RAW_REDIS -> RawRedisContender.oneServer(endpoints.redisUri());
      case BATON_ZOOKEEPER -> new BatonContender(ZooKeeperLockClient.connect(endpoints.zooKeeper()), false);
      case BATON_ZOOKEEPER_LOCK_VIEW -> new BatonContender(ZooKeeperLockClient.connect(endpoints.zooKeeper()), true);
      case BATON_ZOOKEEPER_SINGLE_LOCKS ->
          new SingleLocksInOrderContender(ZooKeeperLockClient.connect(endpoints.zooKeeper()));
      case BATON_ZOOKEEPER_LINGERING -> BatonContender.lingering(ZooKeeperLockClient.connect(endpoints.zooKeeper()));
      case CURATOR -> new CuratorContender(endpoints.zooKeeper());
      case RAW_ZOOKEEPER -> new RawZooKeeperContender(endpoints.zooKeeper());
      case BATON_ETCD -> new BatonContender(EtcdLockClient.connect(endpoints.etcd()), false);
      case BATON_ETCD_LINGERING -> BatonContender.lingering(EtcdLockClient.connect(endpoints.etcd()));
      case JETCD_LOCK -> new JetcdLockContender(endpoints.etcd());
      case JETCD_LOCK_CURRENT -> new JetcdCurrentLockContender(endpoints.etcd());
      case RAW_ETCD -> new RawEtcdContender(endpoints.etcd());
      case BATON_POSTGRES -> new BatonContender(PostgresLockClient.connect(endpoints.postgres()), false);
      case BATON_POSTGRES_LINGERING -> BatonContender.lingering(PostgresLockClient.connect(endpoints.postgres()));
      case JDBC_LOCK_REGISTRY -> JdbcLockRegistryContender.postgres(endpoints.postgres());
      case SHEDLOCK_JDBC -> ShedLockJdbcContender.postgres(endpoints.postgres());
      case RAW_POSTGRES -> RawJdbcContender.postgres(endpoints.postgres());
      case BATON_MYSQL -> new BatonContender(MySqlLockClient.connect(endpoints.mariaDb()), false);
      case BATON_MYSQL_DATA_SOURCE -> BatonContender.onPool(JdbcTarget.of(endpoints.mariaDb()).pool("baton-mysql"),
          pool -> MySqlLockClient.builder().dataSource(pool).connect());
      case JDBC_LOCK_REGISTRY_MYSQL -> JdbcLockRegistryContender.mariaDb(endpoints.mariaDb());
      case SHEDLOCK_JDBC_MYSQL -> ShedLockJdbcContender.mariaDb(endpoints.mariaDb());
      case RAW_MYSQL -> RawJdbcContender.mariaDb(endpoints.mariaDb());
      case BATON_REDIS_CLUSTER -> new BatonContender(RedisLockClient.connect(endpoints.redisClusterUri()), false);
      case BATON_REDIS_CLUSTER_ACKED -> new BatonContender(
          RedisLockClient.connect(endpoints.redisClusterUri() + "?min-replicas=1"), false);
      case REDISSON_CLUSTER -> RedissonContender.cluster(endpoints.redisClusterNodes());
      case RAW_REDIS_CLUSTER -> RawRedisContender.cluster(endpoints.redisClusterNodes());
    };
  }
}
