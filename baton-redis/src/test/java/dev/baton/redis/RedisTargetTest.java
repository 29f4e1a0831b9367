package dev.baton.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import io.lettuce.core.RedisCredentials;
import io.lettuce.core.RedisURI;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link RedisTarget} reads one server's URI, a Sentinel set-up's and a cluster's, and never shows a password. */
class RedisTargetTest {

  @Test
  void readsTheSentinelsTheMasterNameAndTheDatabase() {
    RedisURI uri = RedisTarget.parse("redis-sentinel://10.0.0.1:26379,10.0.0.2:26380,10.0.0.3/2#orders")
        .connectionUri(null, null);

    assertThat(uri.getSentinelMasterId()).isEqualTo("orders");
    assertThat(uri.getSentinels()).extracting(RedisURI::getHost, RedisURI::getPort)
        .containsExactly(tuple("10.0.0.1", 26379), tuple("10.0.0.2", 26380),
            tuple("10.0.0.3", RedisURI.DEFAULT_SENTINEL_PORT));
    assertThat(uri.getDatabase()).isEqualTo(2);
    assertThat(uri.isSsl()).isFalse();
    assertThat(RedisTarget.describe(uri))
        .isEqualTo("master 'orders' of sentinels 10.0.0.1:26379,10.0.0.2:26380,10.0.0.3:26379");
  }

  @Test
  void tlsToTheSentinelsAndTheMaster() {
    RedisURI uri = RedisTarget.parse("REDISS-SENTINEL://10.0.0.1:26379#orders").connectionUri(null, null);

    assertThat(uri.isSsl()).isTrue();
    assertThat(uri.getSentinels()).allSatisfy(sentinel -> assertThat(sentinel.isSsl()).isTrue());
  }

  @Test
  void takesTheMasterNameAsLettuceSParameterToo() {
    assertThat(RedisTarget.parse("redis-sentinel://10.0.0.1:26379?sentinelMasterId=orders").connectionUri(null, null)
        .getSentinelMasterId()).isEqualTo("orders");
  }

  @Test
  void aSentinelUriWithoutMasterNameSaysWhatToAddAndHidesThePassword() {
    for (String uri : new String[] {"redis-sentinel://:s3cret@10.0.0.1:26379,10.0.0.2:26379",
        "redis-sentinel://:s3cret@10.0.0.1:26379/0#"}) {
      assertThatThrownBy(() -> RedisLockClient.builder().uri(uri))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("'redis-sentinel://:***@10.0.0.1:26379")
          .hasMessageContaining("names no master")
          .hasMessageContaining("#NAME")
          .hasMessageContaining("sentinel monitor NAME")
          .hasMessageContaining("redis-sentinel://10.0.0.1:26379,10.0.0.2:26379#mymaster")
          .hasMessageNotContaining("s3cret");
    }
  }

  @Test
  void anUnknownSchemeNamesTheSixItTakes() {
    assertThatThrownBy(() -> RedisLockClient.builder().uri("redis-shards://:s3cret@h1:7000,h2:7001"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'redis-shards://:***@h1:7000,h2:7001'")
        .hasMessageContaining("redis://, rediss://, redis-sentinel://, rediss-sentinel://, redis-cluster:// or"
            + " rediss-cluster://")
        .hasMessageNotContaining("s3cret");
  }

  @Test
  void aClusterUriNamesItsSeedsEachWithTheCredentialsAndParameters() {
    RedisTarget target = RedisTarget.parse("Rediss-Cluster://ops:s3cret@10.0.0.1:7000,10.0.0.2,10.0.0.3:7002"
        + "?clientName=locks");
    List<RedisURI> seeds = target.seedUris(null, null);

    assertThat(target.isCluster()).isTrue();
    assertThat(target.carriesPassword()).isTrue();
    assertThat(seeds).extracting(RedisURI::getHost, RedisURI::getPort)
        .containsExactly(tuple("10.0.0.1", 7000), tuple("10.0.0.2", RedisURI.DEFAULT_REDIS_PORT),
            tuple("10.0.0.3", 7002));
    assertThat(seeds).allSatisfy(seed -> {
      assertThat(seed.isSsl()).isTrue();
      assertThat(seed.getClientName()).isEqualTo("locks");
      assertCredentials(seed, "ops", "s3cret");
    });
    assertThat(RedisTarget.describe(seeds)).isEqualTo("cluster of seeds 10.0.0.1:7000,10.0.0.2:6379,10.0.0.3:7002");
    assertThat(target).hasToString("rediss-cluster://ops:***@10.0.0.1:7000,10.0.0.2,10.0.0.3:7002?clientName=locks");
    assertThat(RedisTarget.parse("redis-cluster://10.0.0.1:7000/0").seedUris("locker", "pw"))
        .singleElement().satisfies(seed -> assertCredentials(seed, "locker", "pw"));
    assertThat(RedisTarget.parse("redis://10.0.0.1:7000").isCluster()).isFalse();
  }

  @Test
  void aClusterUriWithADatabaseAnEmptySeedOrABadPortSaysWhatToUseAndHidesThePassword() {
    for (String uri : new String[] {"redis-cluster://:s3cret@10.0.0.1:7000/2", "redis-cluster://:s3cret@h1:7000#m"}) {
      assertThatThrownBy(() -> RedisLockClient.builder().uri(uri)).isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("names a database or a fragment").hasMessageContaining("database 0 only")
          .hasMessageContaining("redis-cluster://[:password@]host:port[,host:port...]")
          .hasMessageNotContaining("s3cret");
    }
    for (String uri : new String[] {"redis-cluster://:s3cret@", "redis-cluster://:s3cret@h1:7000,,h2:7001"}) {
      assertThatThrownBy(() -> RedisLockClient.builder().uri(uri)).isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("names no seed node, or an empty one").hasMessageNotContaining("s3cret");
    }
    assertThatThrownBy(() -> RedisLockClient.builder().uri("redis-cluster://:s3cret@h1:7000,h2:99999"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'redis-cluster://:***@h1:7000,h2:99999' is malformed")
        .hasMessageContaining("redis-cluster://[:password@]host:port")
        .hasMessageNotContaining("s3cret");
  }

  @Test
  void aMalformedSentinelUriShowsTheSentinelFormWithoutThePassword() {
    assertThatThrownBy(() -> RedisLockClient.builder().uri("redis-sentinel://:s3cret@10.0.0.1:notaport#orders"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("is malformed")
        .hasMessageContaining("redis-sentinel://[:password@]host:port")
        .hasMessageNotContaining("s3cret");
  }

  @Test
  void thePasswordIsTheMastersAndIsSentToTheSentinelsAsTheirDefaultUsers() {
    RedisURI fromUri = RedisTarget.parse("redis-sentinel://:s3cret@10.0.0.1:26379,10.0.0.2:26379#orders")
        .connectionUri(null, null);
    RedisURI fromCredentials = RedisTarget.parse("redis-sentinel://10.0.0.1:26379,10.0.0.2:26379#orders")
        .connectionUri("locker", "pw");

    assertCredentials(fromUri, null, "s3cret");
    assertThat(fromUri.getSentinels()).allSatisfy(sentinel -> assertCredentials(sentinel, null, "s3cret"));
    assertCredentials(fromCredentials, "locker", "pw");
    assertThat(fromCredentials.getSentinels()).allSatisfy(sentinel -> assertCredentials(sentinel, null, "pw"));
  }

  @Test
  void aSentinelUriWithAPasswordRefusesCredentialsBesideIt() {
    assertThatThrownBy(() -> RedisLockClient.builder().uri("redis-sentinel://:s3cret@10.0.0.1:26379#orders")
        .credentials(null, "other").connect())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("'redis-sentinel://:***@10.0.0.1:26379#orders' carries a password")
        .hasMessageNotContaining("s3cret");
  }

  @Test
  void aServerUriIsDescribedByHostAndPort() {
    assertThat(RedisTarget.describe(RedisTarget.parse("redis://:s3cret@cache:6380/1").connectionUri(null, null)))
        .isEqualTo("cache:6380");
    assertThat(RedisTarget.parse("redis://:s3cret@cache:6380/1")).hasToString("redis://:***@cache:6380/1");
  }

  private static void assertCredentials(RedisURI uri, String user, String password) {
    RedisCredentials credentials = uri.getCredentialsProvider().resolveCredentials().block();
    assertThat(credentials.getUsername()).isEqualTo(user);
    assertThat(new String(credentials.getPassword())).isEqualTo(password);
  }

  @Test
  void replicaAcknowledgementParametersAreBatonsAndLettuceNeverSeesThem() {
    RedisTarget server =
        RedisTarget.parse("redis://:secret@10.0.0.1:6379/3?min-replicas=2&timeout=5s&replica-wait-ms=250");
    assertThat(server.acks()).contains(new ReplicaAcks(2, Duration.ofMillis(250)));
    RedisURI uri = server.connectionUri(null, null);
    assertThat(uri.getDatabase()).isEqualTo(3);
    assertThat(uri.getTimeout()).hasSeconds(5);

    RedisTarget sentinel = RedisTarget.parse("redis-sentinel://10.0.0.1:26379?min-replicas=1#orders");
    assertThat(sentinel.acks()).contains(new ReplicaAcks(1, ReplicaAcks.DEFAULT_WITHIN));
    assertThat(sentinel.connectionUri(null, null).getSentinelMasterId()).isEqualTo("orders");

    RedisTarget cluster = RedisTarget.parse("redis-cluster://10.0.0.1:7000,10.0.0.2:7001?min-replicas=1");
    assertThat(cluster.acks()).isPresent();
    assertThat(cluster.seedUris(null, null)).extracting(RedisURI::toString)
        .noneMatch(seed -> seed.contains("min-replicas"));

    assertThat(RedisTarget.parse("redis://10.0.0.1").acks()).isEmpty();
    assertThat(RedisTarget.parse("redis://10.0.0.1?min-replicas=0").acks()).contains(ReplicaAcks.NONE);
  }

  @Test
  void badReplicaAcknowledgementParametersAreRefusedWithoutThePassword() {
    assertThatThrownBy(() -> RedisTarget.parse("redis://:secret@10.0.0.1?min-replicas=17"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("17").hasMessageNotContaining("secret");
    assertThatThrownBy(() -> RedisTarget.parse("redis://:secret@10.0.0.1?min-replicas=1&replica-wait-ms=x"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("replica-wait-ms='x'")
        .hasMessageNotContaining("secret");
    assertThatThrownBy(() -> RedisTarget.parse("redis://10.0.0.1?min-replicas=1&replica-wait-ms=0"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("1 ms to 1 min");
  }
}
