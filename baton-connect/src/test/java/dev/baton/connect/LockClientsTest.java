package dev.baton.connect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.Lease;
import dev.baton.LockClient;
import dev.baton.LockOptions;
import dev.baton.mysql.MySqlLockClient;
import dev.baton.postgres.PostgresLockClient;
import dev.baton.testkit.EmbeddedZooKeeperExtension;
import dev.baton.testkit.EtcdServerExtension;
import dev.baton.testkit.MariaDbServerExtension;
import dev.baton.testkit.PostgresServerExtension;
import dev.baton.testkit.RedisClusterExtension;
import dev.baton.testkit.RedisSentinelExtension;
import dev.baton.testkit.RedisServerExtension;
import dev.baton.zookeeper.ZooKeeperLockClient;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** {@link LockClients} connects each store a URI names, with the settings given, on real servers. */
@Timeout(30)
class LockClientsTest {
  @RegisterExtension
  static final RedisServerExtension redis = new RedisServerExtension();
  @RegisterExtension
  static final RedisSentinelExtension redisSentinels = new RedisSentinelExtension();
  @RegisterExtension
  static final RedisClusterExtension redisCluster = new RedisClusterExtension();
  @RegisterExtension
  static final EmbeddedZooKeeperExtension zooKeeper = new EmbeddedZooKeeperExtension();
  @RegisterExtension
  static final EtcdServerExtension etcd = new EtcdServerExtension();
  @RegisterExtension
  static final PostgresServerExtension postgres = new PostgresServerExtension();
  @RegisterExtension
  static final MariaDbServerExtension mariadb = new MariaDbServerExtension();

  static Stream<String> uris() {
    return Stream.of(redis.uri(), redisSentinels.uri(), redisCluster.uri(), "zookeeper://" + zooKeeper.connectString(),
        "zk://" + zooKeeper.connectString(),
        "etcd://" + etcd.endpoint().substring("http://".length()), etcd.endpoint());
  }

  @ParameterizedTest
  @MethodSource("uris")
  void connectsWithTheDefaultOptionsAndTimeoutsGiven(String uri) throws Exception {
    LockOptions options = LockOptions.builder().ttl(Duration.ofSeconds(5)).waitTime(Duration.ofSeconds(1)).build();
    ConnectionSettings settings = ConnectionSettings.builder(uri).defaultOptions(options)
        .connectTimeout(Duration.ofSeconds(5)).commandTimeout(Duration.ofSeconds(5))
        .sessionTimeout(Duration.ofSeconds(3)).build();
    try (LockClient client = LockClients.connect(settings)) {
      assertThat(client.backendName()).isEqualTo(settings.uri().backend().name().toLowerCase(java.util.Locale.ROOT));
      assertThat(client.defaultOptions()).isEqualTo(options);
      try (Lease lease = client.lock("connect/k").acquire()) {
        assertThat(client.status("connect/k").ownerId()).contains(lease.ownerId());
      }
    }
  }

  @ParameterizedTest
  @MethodSource("uris")
  void aNamespaceSeparatesTheKeysOfClients(String uri) throws Exception {
    try (LockClient orders = LockClients.connect(ConnectionSettings.builder(uri).namespace("team/orders").build());
        LockClient sameNamespace = LockClients.connect(ConnectionSettings.builder(uri).namespace("team/orders").build());
        LockClient plain = LockClients.connect(uri);
        Lease lease = orders.lock("namespaced").acquire()) {
      assertThat(sameNamespace.status("namespaced").isHeld()).isTrue();
      assertThat(plain.status("namespaced").isHeld()).isFalse();
      assertThat(lease.isHeld()).isTrue();
    }
  }

  @Test
  void writesRedisKeysUnderTheNamespace() throws Exception {
    try (LockClient client = LockClients.connect(ConnectionSettings.builder(redis.uri()).namespace("shop").build());
        Lease lease = client.lock("cart").acquire()) {
      assertThat(redis.command("EXISTS", "shop:lock:cart")).isEqualTo(1L);
    }
  }

  @Test
  void compatCuratorPutsKeyKAtThePathSlashKAsCuratorWould() throws Exception {
    try (LockClient compatible = LockClients.connect("zookeeper://" + zooKeeper.connectString() + "?compat=curator");
        LockClient atTheRoot = ZooKeeperLockClient.builder().connectString(zooKeeper.connectString()).namespace("/")
            .connect();
        Lease lease = compatible.lock("cart").acquire()) {
      assertThat(atTheRoot.lock("cart").tryAcquire()).as("the lock at /cart").isEmpty();
      assertThatThrownBy(() -> compatible.lock("cart", LockOptions.builder().fair(false).build()).acquire())
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("compat=curator");
    }
  }

  @Test
  void compatRedissonPutsKeyKInTheHashKAsRedissonWould() throws Exception {
    try (LockClient compatible = LockClients.connect(redis.uri() + "?compat=redisson");
        Lease lease = compatible.lock("basket").acquire()) {
      assertThat(redis.command("HGET", "basket", lease.ownerId())).as("the holder's field of the hash basket")
          .isEqualTo("1");
      assertThatThrownBy(() -> compatible.semaphore("basket", 2).acquire())
          .isInstanceOf(UnsupportedOperationException.class).hasMessageContaining("compat=redisson");
    }
    assertThat(redis.command("EXISTS", "basket")).as("after the release").isEqualTo(0L);
  }

  @Test
  void connectsToPostgresqlByItsUri() throws Exception {
    try (LockClient client = LockClients.connect(postgres.uri()); LockClient other = LockClients.connect(postgres.uri());
        Lease lease = client.lock("cart").acquire()) {
      assertThat(client.backendName()).isEqualTo("postgres");
      assertThat(other.lock("cart").tryAcquire()).as("another client's try").isEmpty();
    }
  }

  /** On PostgreSQL the namespace is the lock table: NAME_locks, apart from the default table's locks. */
  @Test
  void aPostgresqlNamespaceIsItsOwnLockTable() throws Exception {
    ConnectionSettings orders = ConnectionSettings.builder(postgres.uri()).namespace("orders").build();
    try (LockClient namespaced = LockClients.connect(orders); LockClient plain = LockClients.connect(postgres.uri());
        LockClient sameTable = PostgresLockClient.builder().address(postgres.uri()).table("orders_locks").connect();
        Lease lease = namespaced.lock("cart").acquire()) {
      assertThat(sameTable.lock("cart").tryAcquire()).as("a client of the table orders_locks").isEmpty();
      assertThat(plain.lock("cart").tryAcquire()).as("a client of the default table").isPresent()
          .hasValueSatisfying(Lease::close);
    }
    assertThatThrownBy(() -> LockClients.connect(ConnectionSettings.builder(postgres.uri()).namespace("team/orders")
        .build())).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'team/orders'")
        .hasMessageContaining("NAMESPACE_locks");
  }

  @Test
  void connectsToMysqlAndMariadbByTheirUris() throws Exception {
    String mysql = mariadb.uri().replaceFirst("^mariadb:", "mysql:");
    try (LockClient client = LockClients.connect(mariadb.uri()); LockClient other = LockClients.connect(mysql);
        Lease lease = client.lock("cart").acquire()) {
      assertThat(client.backendName()).isEqualTo("mysql");
      assertThat(other.lock("cart").tryAcquire()).as("another client's try").isEmpty();
    }
  }

  /** On MySQL, as on PostgreSQL, the namespace is the lock table: NAME_locks, apart from the default table's locks. */
  @Test
  void aMysqlNamespaceIsItsOwnLockTable() throws Exception {
    ConnectionSettings orders = ConnectionSettings.builder(mariadb.uri()).namespace("orders").build();
    try (LockClient namespaced = LockClients.connect(orders); LockClient plain = LockClients.connect(mariadb.uri());
        LockClient sameTable = MySqlLockClient.builder().address(mariadb.uri()).table("orders_locks").connect();
        Lease lease = namespaced.lock("cart").acquire()) {
      assertThat(sameTable.lock("cart").tryAcquire()).as("a client of the table orders_locks").isEmpty();
      assertThat(plain.lock("cart").tryAcquire()).as("a client of the default table").isPresent()
          .hasValueSatisfying(Lease::close);
    }
    assertThatThrownBy(() -> LockClients.connect(ConnectionSettings.builder(mariadb.uri()).namespace("team/orders")
        .build())).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'team/orders'")
        .hasMessageContaining("NAMESPACE_locks");
  }

  @Test
  void rejectsBadSettingsNamingTheValue() {
    ConnectionSettings.Builder builder = ConnectionSettings.builder(redis.uri());
    assertThatThrownBy(() -> builder.namespace("/orders")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'/orders'");
    assertThatThrownBy(() -> builder.namespace("a b")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'a b'");
    assertThatThrownBy(() -> builder.commandTimeout(Duration.ZERO)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("commandTimeout").hasMessageContaining("PT0S");
    assertThatThrownBy(() -> builder.defaultOptions(null)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("LockOptions.defaults()");
    assertThatThrownBy(() -> LockClients.connect((ConnectionSettings) null)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> LockClients.connect(ConnectionSettings.builder(etcd.endpoint())
        .sessionTimeout(Duration.ofMillis(1500)).build())).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("sessionTimeout");
  }
}
