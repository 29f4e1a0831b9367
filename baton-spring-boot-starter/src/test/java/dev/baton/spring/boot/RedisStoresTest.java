package dev.baton.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.springframework.mock.env.MockEnvironment;

/** How the spring.data.redis.* properties read as a Baton store: the URI, the credentials beside it, TLS. */
class RedisStoresTest {

  @Test
  void hostPortDatabaseAndCredentials() {
    ApplicationStore store = RedisStores.ofProperties(new MockEnvironment()
        .withProperty("spring.data.redis.host", "cache.internal").withProperty("spring.data.redis.port", "6380")
        .withProperty("spring.data.redis.database", "3").withProperty("spring.data.redis.username", "orders")
        .withProperty("spring.data.redis.password", "s3cret"));
    assertThat(store.uri()).isEqualTo("redis://cache.internal:6380/3");
    assertThat(store.user()).isEqualTo("orders");
    assertThat(store.password()).isEqualTo("s3cret");
    assertThat(store.choice().describe()).doesNotContain("s3cret");
  }

  @Test
  void aUrlWinsAndRedissOrSslEnabledMeanTls() {
    ApplicationStore store = RedisStores.ofProperties(new MockEnvironment()
        .withProperty("spring.data.redis.url", "rediss://:s3cret@[::1]:6390/1")
        .withProperty("spring.data.redis.host", "ignored"));
    assertThat(store.uri()).isEqualTo("rediss://[::1]:6390/1");
    assertThat(store.user()).isNull();
    assertThat(store.password()).isEqualTo("s3cret");
    assertThat(RedisStores.ofProperties(new MockEnvironment().withProperty("spring.data.redis.ssl.enabled", "true"))
        .uri()).isEqualTo("rediss://localhost:6379");
  }

  @Test
  void sentinelsAndClusters() {
    assertThat(RedisStores.ofProperties(new MockEnvironment()
        .withProperty("spring.data.redis.sentinel.master", "mymaster")
        .withProperty("spring.data.redis.sentinel.nodes", "s1:26379,s2:26379")
        .withProperty("spring.data.redis.database", "2")).uri())
        .isEqualTo("redis-sentinel://s1:26379,s2:26379/2#mymaster");
    assertThat(RedisStores.ofProperties(new MockEnvironment()
        .withProperty("spring.data.redis.cluster.nodes", "c1:7000,c2:7001")).uri())
        .isEqualTo("redis-cluster://c1:7000,c2:7001");
  }

  @Test
  void aNodeWithoutAPortIsRefusedNamingIt() {
    assertThatThrownBy(() -> RedisStores.ofProperties(new MockEnvironment()
        .withProperty("spring.data.redis.cluster.nodes", "c1")))
        .isInstanceOf(BatonStartupException.class).hasMessageContaining("'c1' has no port");
  }
}
