package dev.baton.bench.suite;

import dev.baton.etcd.EtcdLockClient;
import dev.baton.redis.RedisLockClient;
import dev.baton.zookeeper.ZooKeeperLockClient;

/** Every lock implementation the suite measures, and how to open one on a run's servers. */
enum Implementation {
  BATON_REDIS(Store.REDIS, Role.BATON, "Baton (lease)"),
  BATON_REDIS_LOCK_VIEW(Store.REDIS, Role.BATON, "Baton (Lock view)"),
  REDISSON(Store.REDIS, Role.PEER, "Redisson RLock"),
  RAW_REDIS(Store.REDIS, Role.RAW, "raw: 2 x EVALSHA"),
  BATON_ZOOKEEPER(Store.ZOOKEEPER, Role.BATON, "Baton (lease)"),
  CURATOR(Store.ZOOKEEPER, Role.PEER, "Curator InterProcessMutex"),
  RAW_ZOOKEEPER(Store.ZOOKEEPER, Role.RAW, "raw: create + delete"),
  BATON_ETCD(Store.ETCD, Role.BATON, "Baton (lease)"),
  JETCD_LOCK(Store.ETCD, Role.PEER, "jetcd Lock (a lease per thread)"),
  RAW_ETCD(Store.ETCD, Role.RAW, "raw: put with lease + delete");

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
  private final String label;

  Implementation(Store store, Role role, String label) {
    this.store = store;
    this.role = role;
    this.label = label;
  }

  Store store() {
    return store;
  }

  Role role() {
    return role;
  }

  /** The implementation's name on the page. */
  String label() {
    return label;
  }

  /** A new client of this implementation, connected to the run's servers. */
  Contender open(Endpoints endpoints) throws Exception {
    return switch (this) {
      case BATON_REDIS -> new BatonContender(RedisLockClient.connect(endpoints.redisUri()), false);
      case BATON_REDIS_LOCK_VIEW -> new BatonContender(RedisLockClient.connect(endpoints.redisUri()), true);
      case REDISSON -> new RedissonContender(endpoints.redisUri());
      case RAW_REDIS -> new RawRedisContender(endpoints.redisUri());
      case BATON_ZOOKEEPER -> new BatonContender(ZooKeeperLockClient.connect(endpoints.zooKeeper()), false);
      case CURATOR -> new CuratorContender(endpoints.zooKeeper());
      case RAW_ZOOKEEPER -> new RawZooKeeperContender(endpoints.zooKeeper());
      case BATON_ETCD -> new BatonContender(EtcdLockClient.connect(endpoints.etcd()), false);
      case JETCD_LOCK -> new JetcdLockContender(endpoints.etcd());
      case RAW_ETCD -> new RawEtcdContender(endpoints.etcd());
    };
  }
}
