package dev.baton.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.baton.Lease;
import dev.baton.LockClient;
import dev.baton.LockOptions;
import dev.baton.connect.LockClients;
import dev.baton.testkit.RedisServerExtension;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** The {@code locks} endpoint on a real Redis: what this instance holds and waits for, and the store's locks. */
@Timeout(60)
class LocksEndpointTest {
  @RegisterExtension
  static final RedisServerExtension redis = new RedisServerExtension();

  private final ApplicationContextRunner runner = new ApplicationContextRunner()
      .withConfiguration(AutoConfigurations.of(BatonAutoConfiguration.class, BatonLocksEndpointAutoConfiguration.class))
      .withPropertyValues("baton.backend=" + redis.uri());

  @Test
  void likeEveryEndpointItIsNotThereUnlessExposed() {
    runner.run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(LocksEndpoint.class));
  }

  @Test
  void listsTheLocksThisInstanceHoldsAndWaitsFor() {
    runner.withPropertyValues("management.endpoints.web.exposure.include=locks").run(context -> {
      LocksEndpoint endpoint = context.getBean(LocksEndpoint.class);
      LockClient client = context.getBean(LockClient.class);
      try (LockClient other = LockClients.connect(redis.uri()); Lease elsewhere = other.lock("report").acquire();
          Lease mine = client.lock("nightly").acquire(LockOptions.defaults().withHoldTimeout(Duration.ofMinutes(10)))) {
        CompletableFuture<Void> waiter = CompletableFuture.runAsync(() -> {
          try (Lease late = client.lock("report").acquire(LockOptions.defaults().withWaitTime(Duration.ofSeconds(20)))) {
            assertThat(late.isHeld()).isTrue();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        });
        await().atMost(Duration.ofSeconds(10))
            .until(() -> ((LocksEndpoint.InstanceLocks) endpoint.locks(null)).waiting().size() == 1);
        LocksEndpoint.InstanceLocks locks = (LocksEndpoint.InstanceLocks) endpoint.locks(null);
        assertThat(locks.clientId()).isEqualTo(client.clientId());
        assertThat(locks.held()).singleElement().satisfies(held -> {
          assertThat(held.key()).isEqualTo("nightly");
          assertThat(held.primitive()).isEqualTo("LOCK");
          assertThat(held.fencingToken()).isEqualTo(mine.fencingToken());
          assertThat(held.since()).isNotBlank();
          assertThat(Instant.parse(held.holdEndsAt())).as("the end of its 10-minute hold timeout")
              .isBetween(Instant.now().plus(Duration.ofMinutes(9)), Instant.now().plus(Duration.ofMinutes(10)));
        });
        assertThat(new ObjectMapper().writeValueAsString(locks)).as("the answer Actuator writes")
            .contains("\"held\":[{\"key\":\"nightly\",\"primitive\":\"LOCK\",\"since\":\"")
            .contains("\"fencingToken\":" + mine.fencingToken() + ",\"holdEndsAt\":\"")
            .contains("\"waiting\":[{\"key\":\"report\",\"primitive\":\"LOCK\",\"since\":\"");
        assertThat(locks.waiting()).singleElement().satisfies(wait -> {
          assertThat(wait.key()).isEqualTo("report");
          assertThat(wait.primitive()).isEqualTo("LOCK");
        });
        elsewhere.close();
        waiter.get();
      }
      assertThat(new ObjectMapper().writeValueAsString(endpoint.locks(null)))
          .isEqualTo("{\"clientId\":\"" + client.clientId() + "\",\"held\":[],\"waiting\":[]}");
      LocksEndpoint.InstanceLocks after = (LocksEndpoint.InstanceLocks) endpoint.locks(null);
      assertThat(after.held()).isEmpty();
      assertThat(after.waiting()).isEmpty();
    });
  }

  @Test
  void withAPrefixListsTheStoresLocksWhoeverHoldsThem() {
    runner.withPropertyValues("management.endpoints.web.exposure.include=locks").run(context -> {
      LocksEndpoint endpoint = context.getBean(LocksEndpoint.class);
      try (LockClient other = LockClients.connect(redis.uri()); Lease a = other.lock("orders/1").acquire();
          Lease b = context.getBean(LockClient.class).lock("orders/2").acquire();
          Lease c = other.lock("invoices/1").acquire()) {
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
          LocksEndpoint.StoreLocks locks = (LocksEndpoint.StoreLocks) endpoint.locks("orders/");
          assertThat(locks.prefix()).isEqualTo("orders/");
          assertThat(locks.truncated()).isFalse();
          assertThat(locks.locks()).extracting(LocksEndpoint.StoreLock::key).containsExactly("orders/1", "orders/2");
          assertThat(locks.locks().get(0).fencingToken()).isEqualTo(a.fencingToken());
          assertThat(locks.locks().get(0).owner()).isEqualTo(a.ownerId());
          assertThat(locks.locks().get(1).mode()).isEqualTo("EXCLUSIVE");
          assertThat(new ObjectMapper().writeValueAsString(locks)).startsWith("{\"prefix\":\"orders/\",\"locks\":"
              + "[{\"key\":\"orders/1\",\"mode\":\"EXCLUSIVE\",\"holders\":1,\"owner\":\"" + a.ownerId() + "\"")
              .doesNotContain(redis.uri()).endsWith("\"truncated\":false}");
        });
      }
    });
  }
}
