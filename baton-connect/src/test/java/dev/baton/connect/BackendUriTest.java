package dev.baton.connect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.connect.BackendUri.Backend;

import org.junit.jupiter.api.Test;

/** {@link BackendUri} reads the store a URI names, and shows it with its secrets hidden. */
class BackendUriTest {

  @Test
  void takesTheCompatParameterOutOfWhatIsConnectedTo() {
    BackendUri uri = BackendUri.parse("zookeeper://zk1:2181,zk2:2181/team?compat=curator");
    assertThat(uri.compat()).contains("curator");
    assertThat(uri.address()).isEqualTo("zk1:2181,zk2:2181/team");
    BackendUri redis = BackendUri.parse("redis://:s3cret@cache:6379/2?timeout=5s");
    assertThat(redis.compat()).isEmpty();
    assertThat(redis.value()).isEqualTo("redis://:s3cret@cache:6379/2?timeout=5s");
  }

  @Test
  void refusesACompatModeTheStoreDoesNotOffer() {
    assertThatThrownBy(() -> BackendUri.parse("redis://:s3cret@cache:6379?compat=curator"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("compat=curator")
        .hasMessageContaining("it offers compat=redisson").hasMessageNotContaining("s3cret");
    assertThatThrownBy(() -> BackendUri.parse("postgresql://u:s3cret@db:5432/app?compat=redisson"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("compat=redisson")
        .hasMessageNotContaining("s3cret");
    assertThatThrownBy(() -> BackendUri.parse("zookeeper://zk1:2181?compat=kazoo"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("it offers compat=curator");
    assertThat(BackendUri.parse("etcd://e1:2379,e2:2379?compat=etcd").address()).isEqualTo("e1:2379,e2:2379");
    assertThat(BackendUri.parse("redis-sentinel://s1:26379,s2:26379/1?compat=redisson#orders").value())
        .isEqualTo("redis-sentinel://s1:26379,s2:26379/1#orders");
    BackendUri masterFirst = BackendUri.parse("redis-sentinel://s1:26379#orders?timeout=5s&compat=redisson");
    assertThat(masterFirst.compat()).contains("redisson");
    assertThat(masterFirst.value()).isEqualTo("redis-sentinel://s1:26379#orders?timeout=5s");
  }

  @Test
  void readsTheStoreOfEachScheme() {
    assertThat(BackendUri.parse("redis://h:6379").backend()).isEqualTo(Backend.REDIS);
    assertThat(BackendUri.parse("REDISS://h:6380").backend()).isEqualTo(Backend.REDIS);
    assertThat(BackendUri.parse("redis-sentinel://s1:26379,s2:26379#orders").backend()).isEqualTo(Backend.REDIS);
    assertThat(BackendUri.parse("Rediss-Sentinel://s1:26379#orders").scheme()).isEqualTo("rediss-sentinel");
    assertThat(BackendUri.parse("redis-sentinel://s1:26379,s2:26379/1#orders").address())
        .isEqualTo("s1:26379,s2:26379/1#orders");
    assertThat(BackendUri.parse("redis-cluster://n1:7000,n2:7001").backend()).isEqualTo(Backend.REDIS);
    assertThat(BackendUri.parse("Rediss-Cluster://n1:7000?compat=redisson").scheme()).isEqualTo("rediss-cluster");
    assertThat(BackendUri.parse("redis-cluster://:s3cret@n1:7000,n2:7001").address()).isEqualTo(":s3cret@n1:7000,n2:7001");
    assertThat(BackendUri.parse("zookeeper://h:2181,g:2181/chroot").backend()).isEqualTo(Backend.ZOOKEEPER);
    assertThat(BackendUri.parse("zk://h:2181").address()).isEqualTo("h:2181");
    assertThat(BackendUri.parse("etcd://h:2379").backend()).isEqualTo(Backend.ETCD);
    assertThat(BackendUri.parse("https://h:2379").scheme()).isEqualTo("https");
    assertThat(BackendUri.parse("mysql://u:p@h:3306/db").backend()).isEqualTo(Backend.MYSQL);
    assertThat(BackendUri.parse("MariaDB://u:p@h:3306/db").backend()).isEqualTo(Backend.MYSQL);
    assertThat(BackendUri.parse("jdbc:mysql://h:3306/db").backend()).isEqualTo(Backend.MYSQL);
    assertThat(BackendUri.parse("jdbc:mariadb://h:3306/db").backend()).isEqualTo(Backend.MYSQL);
    assertThat(BackendUri.parse("mysql://u:s3cret@h:3306/db")).hasToString("mysql://u:***@h:3306/db");
  }

  @Test
  void showsItselfWithThePasswordHidden() {
    BackendUri uri = BackendUri.parse(" redis://:s3cret@cache:6379 ");
    assertThat(uri).hasToString("redis://:***@cache:6379");
    assertThat(uri.value()).isEqualTo("redis://:s3cret@cache:6379");
    BackendUri sentinel = BackendUri.parse("redis-sentinel://:s3cret@s1:26379,s2:26379/0#orders");
    assertThat(sentinel).hasToString("redis-sentinel://:***@s1:26379,s2:26379/0#orders");
    assertThat(sentinel.hasCredentials()).isTrue();
    BackendUri postgres = BackendUri.parse("postgresql://127.0.0.1:5432/baton?user=baton&password=S3CRETPW");
    assertThat(postgres).hasToString("postgresql://127.0.0.1:5432/baton?user=baton&password=***");
    assertThat(postgres.hasCredentials()).isTrue();
    assertThat(BackendUri.parse("postgresql://baton@127.0.0.1:5432/baton?sslmode=require").hasCredentials()).isFalse();
  }

  @Test
  void rejectsWhatIsNoBackendUriNamingTheValueAndTheForms() {
    assertThatThrownBy(() -> BackendUri.parse(null)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("redis://127.0.0.1:6379");
    assertThatThrownBy(() -> BackendUri.parse("  ")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("No backend URI given");
    assertThatThrownBy(() -> BackendUri.parse("localhost:6379")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'localhost:6379' is not a URI").hasMessageContaining("zookeeper://")
        .hasMessageContaining("redis-sentinel://host:port[,host:port]#master")
        .hasMessageContaining("redis-cluster://host:port[,host:port]");
    assertThatThrownBy(() -> BackendUri.parse("mongodb://u:pw@h")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Unknown backend 'mongodb://u:***@h'").hasMessageNotContaining("pw");
    assertThatThrownBy(() -> BackendUri.parse("redis://")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("names no server");
  }

  @Test
  void etcdUrisListEveryMemberWithItsScheme() {
    assertThat(EtcdConnector.endpoints(BackendUri.parse("etcd://a:2379, b:2379")))
        .isEqualTo("http://a:2379,http://b:2379");
    assertThat(EtcdConnector.endpoints(BackendUri.parse("https://a:2379,b:2379")))
        .isEqualTo("https://a:2379,https://b:2379");
  }
}
