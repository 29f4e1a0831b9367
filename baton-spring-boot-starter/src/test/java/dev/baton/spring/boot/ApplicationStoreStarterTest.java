package dev.baton.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Lease;
import dev.baton.LockClient;
import dev.baton.connect.LockClients;
import dev.baton.testkit.EmbeddedZooKeeperExtension;
import dev.baton.testkit.RedisServerExtension;
import java.util.Map;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.data.redis.RedisConnectionDetails;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/**
 * With no {@code baton.backend}, the starter locks on the store the application configures for itself, on real
 * servers: its Redis, its ZooKeeper, in that order; {@code baton.backend} wins over both.
 */
@Timeout(60)
@ExtendWith(OutputCaptureExtension.class)
class ApplicationStoreStarterTest {
  @RegisterExtension
  static final RedisServerExtension redis = new RedisServerExtension();

  @RegisterExtension
  static final EmbeddedZooKeeperExtension zooKeeper = new EmbeddedZooKeeperExtension();

  private final ApplicationContextRunner runner = new ApplicationContextRunner()
      .withConfiguration(AutoConfigurations.of(BatonAutoConfiguration.class, BatonHealthAutoConfiguration.class));

  @Test
  void withOnlySpringDataRedisPropertiesItLocksOnThatRedis(CapturedOutput output) {
    runner.withPropertyValues("spring.data.redis.host=127.0.0.1", "spring.data.redis.port=" + redis.server().port())
        .run(context -> {
          assertThat(context).hasNotFailed();
          LockClient client = context.getBean(LockClient.class);
          assertThat(client.backendName()).isEqualTo("redis");
          assertLocksOn(client, redis.uri());
          assertThat(health(context)).containsEntry("uri", redis.uri())
              .containsEntry("chosenBy", "spring.data.redis.*, as baton.backend is unset");
        });
    assertThat(output.getAll()).contains("Baton locks on " + redis.uri()
        + ", chosen by spring.data.redis.*, as baton.backend is unset");
  }

  @Test
  void theUrlsUserAndPasswordAreCarriedOverAndNeverShown(CapturedOutput output) {
    redis.command("ACL", "SETUSER", "orders", "on", ">s3cret", "~*", "&*", "+@all");
    try {
      String address = redis.uri().substring("redis://".length());
      runner.withPropertyValues("spring.data.redis.url=redis://orders:s3cret@" + address).run(context -> {
        assertThat(context).hasNotFailed();
        assertLocksOn(context.getBean(LockClient.class), redis.uri());
        assertThat(health(context).toString()).doesNotContain("s3cret");
      });
      runner.withPropertyValues("spring.data.redis.url=redis://orders:wr0ng@" + address).run(context -> {
        FailureAnalysis analysis = analysis(context);
        assertThat(analysis.getDescription()).startsWith("Property spring.data.redis.*: " + redis.uri()
            + " refused Baton's credentials").doesNotContain("wr0ng");
      });
      assertThat(output.getAll()).doesNotContain("s3cret").doesNotContain("wr0ng");
    } finally {
      redis.command("ACL", "DELUSER", "orders");
    }
  }

  @Test
  void springBootsRedisConnectionDetailsWinOverTheProperties() {
    runner.withPropertyValues("spring.data.redis.port=1")
        .withBean(RedisConnectionDetails.class, () -> new RedisConnectionDetails() {
          @Override
          public Standalone getStandalone() {
            return Standalone.of("127.0.0.1", redis.server().port());
          }
        })
        .run(context -> {
          assertThat(context).hasNotFailed();
          assertLocksOn(context.getBean(LockClient.class), redis.uri());
          assertThat(health(context)).containsEntry("uri", redis.uri()).containsEntry("chosenBy", "Spring Boot's"
              + " RedisConnectionDetails (spring.data.redis.* or a service connection), as baton.backend is unset");
        });
  }

  @Test
  void withSpringCloudZookeepersConnectStringItLocksOnThatZooKeeper() {
    runner.withPropertyValues("spring.cloud.zookeeper.connect-string=" + zooKeeper.connectString()).run(context -> {
      assertThat(context).hasNotFailed();
      assertThat(context.getBean(LockClient.class).backendName()).isEqualTo("zookeeper");
      assertLocksOn(context.getBean(LockClient.class), "zookeeper://" + zooKeeper.connectString());
      assertThat(health(context)).containsEntry("chosenBy",
          "spring.cloud.zookeeper.connect-string, as baton.backend is unset");
    });
  }

  @Test
  void withACuratorBeanItLocksOnItsZooKeeper() {
    runner.withBean(CuratorFramework.class,
        () -> CuratorFrameworkFactory.newClient(zooKeeper.connectString(), new RetryOneTime(100)),
        bean -> {
          bean.setInitMethodName("start");
          bean.setDestroyMethodName("close");
        }).run(context -> {
          assertThat(context).hasNotFailed();
          assertLocksOn(context.getBean(LockClient.class), "zookeeper://" + zooKeeper.connectString());
          assertThat(health(context)).containsEntry("uri", "zookeeper://" + zooKeeper.connectString())
              .containsEntry("chosenBy", "the application's CuratorFramework bean, as baton.backend is unset");
        });
  }

  @Test
  void redisComesBeforeZooKeeper() {
    runner.withPropertyValues("spring.data.redis.port=" + redis.server().port(),
        "spring.cloud.zookeeper.connect-string=" + zooKeeper.connectString())
        .run(context -> assertThat(context.getBean(LockClient.class).backendName()).isEqualTo("redis"));
  }

  @Test
  void batonBackendWins() {
    runner.withPropertyValues("baton.backend=zookeeper://" + zooKeeper.connectString(),
        "spring.data.redis.port=" + redis.server().port())
        .withBean(RedisConnectionDetails.class, () -> new RedisConnectionDetails() {
          @Override
          public Standalone getStandalone() {
            return Standalone.of("127.0.0.1", redis.server().port());
          }
        })
        .run(context -> {
          assertThat(context.getBean(LockClient.class).backendName()).isEqualTo("zookeeper");
          assertThat(health(context)).containsEntry("chosenBy", "baton.backend");
        });
  }

  @Test
  void anUnreachableRedisOfTheApplicationFailsTheStartNamingIt() {
    runner.withPropertyValues("spring.data.redis.host=127.0.0.1", "spring.data.redis.port=1",
        "baton.connect-timeout=2s").run(context -> assertThat(analysis(context).getDescription())
            .startsWith("Property spring.data.redis.*: Baton could not reach redis://127.0.0.1:1"));
  }

  /** A lock the client takes is one another client of {@code uri} sees held. */
  private static void assertLocksOn(LockClient client, String uri) throws Exception {
    try (LockClient observer = LockClients.connect(uri); Lease lease = client.lock("application-store").acquire()) {
      assertThat(observer.status("application-store").isHeld()).isTrue();
    }
  }

  private static Map<String, Object> health(AssertableApplicationContext context) {
    return context.getBean(BatonHealthIndicator.class).health().getDetails();
  }

  private static FailureAnalysis analysis(AssertableApplicationContext context) {
    assertThat(context).hasFailed();
    FailureAnalysis analysis = new BatonStartupFailureAnalyzer().analyze(context.getStartupFailure());
    assertThat(analysis).as("a BatonStartupException in %s", context.getStartupFailure()).isNotNull();
    return analysis;
  }
}
