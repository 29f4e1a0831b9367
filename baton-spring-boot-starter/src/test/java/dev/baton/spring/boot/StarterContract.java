package dev.baton.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.Lease;
import dev.baton.LeaseState;
import dev.baton.LockClient;
import dev.baton.LockTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.actuate.health.Status;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** The starter on one backend: Spring Boot contexts, each standing for an instance of the application. */
@Timeout(60)
abstract class StarterContract {
  private static final Duration PROMPTLY = Duration.ofSeconds(5);

  private final Activity activity = new Activity();

  /** The value of {@code baton.backend} for the test's server. */
  protected abstract String backend();

  /** The backend's name as the client gives it. */
  protected abstract String backendName();

  /** What the application has besides Baton, such as its own DataSource: nothing unless a subclass says. */
  protected ApplicationContextRunner application(ApplicationContextRunner runner) {
    return runner;
  }

  private ApplicationContextRunner runner() {
    return application(new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(BatonAutoConfiguration.class, BatonHealthAutoConfiguration.class))
        .withPropertyValues("baton.backend=" + backend(), "baton.ttl=5s", "baton.session-timeout=3s")
        .withBean(Activity.class, () -> activity)
        .withUserConfiguration(OrdersConfiguration.class));
  }

  @Test
  void connectsAClientFromThePropertiesAndReportsItsHealth() {
    runner().withPropertyValues("baton.wait-time=2s", "baton.fair=false").run(context -> {
      LockClient client = context.getBean(LockClient.class);
      assertThat(client.backendName()).isEqualTo(backendName());
      assertThat(client.defaultOptions().ttl()).isEqualTo(Duration.ofSeconds(5));
      assertThat(client.defaultOptions().waitTime()).contains(Duration.ofSeconds(2));
      assertThat(client.defaultOptions().fair()).isFalse();
      var health = context.getBean(BatonHealthIndicator.class).health();
      assertThat(health.getStatus()).isEqualTo(Status.UP);
      assertThat(health.getDetails()).containsEntry("backend", backendName()).containsKey("clientId");
    });
  }

  @Test
  void aLockedMethodRunsHoldingTheKeyItsArgumentsGive() {
    runner().run(context -> assertThat(context.getBean(Orders.class).ship(42)).isTrue());
  }

  @Test
  void twoInstancesRunALockedMethodOneAtATime() {
    runner().run(first -> runner().run(second -> {
      List<Orders> instances = List.of(first.getBean(Orders.class), second.getBean(Orders.class));
      ExecutorService pool = Executors.newFixedThreadPool(4);
      try {
        List<Future<?>> calls = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
          Orders orders = instances.get(t % 2);
          calls.add(pool.submit(() -> {
            for (int i = 0; i < 15; i++) {
              orders.reserve("sku-1");
            }
          }));
        }
        for (Future<?> call : calls) {
          call.get();
        }
      } finally {
        pool.shutdownNow();
      }
    }));
    assertThat(activity.maxRunning()).isEqualTo(1);
  }

  /**
   * {@code @Locked} on virtual threads, many more than carrier threads, all on one key: they take turns and
   * none is lost. Runs on a JDK with virtual threads (21+; the build runs these tests again on the machine's
   * Temurin JDK when it has one), skipped on 17.
   */
  @Test
  void lockedMethodsRunOnVirtualThreads() throws Exception {
    assumeTrue(Runtime.version().feature() >= 21, "virtual threads need JDK 21 or later");
    ExecutorService virtualThreads = (ExecutorService) Executors.class.getMethod("newVirtualThreadPerTaskExecutor")
        .invoke(null);
    runner().run(context -> {
      Orders orders = context.getBean(Orders.class);
      try {
        List<Future<?>> calls = new ArrayList<>();
        for (int t = 0; t < 64; t++) {
          calls.add(virtualThreads.submit(() -> orders.reserve("sku-virtual")));
        }
        for (Future<?> call : calls) {
          call.get(PROMPTLY.toSeconds() * 4, TimeUnit.SECONDS);
        }
      } finally {
        virtualThreads.shutdownNow();
      }
    });
    assertThat(activity.maxRunning()).isEqualTo(1);
  }

  @Test
  void aLockHeldElsewhereMakesTheCallThrowLockTimeoutException() {
    runner().run(context -> {
      try (Lease held = context.getBean(LockClient.class).lock("order:7").acquire()) {
        Orders orders = context.getBean(Orders.class);
        CompletableFuture<String> call = CompletableFuture.supplyAsync(() -> orders.cancel(7));
        assertThatThrownBy(call::join).hasCauseInstanceOf(LockTimeoutException.class).hasMessageContaining("order:7");
      }
    });
  }

  @Test
  void aFallbackAnswersWhenTheLockIsTaken() {
    runner().run(context -> {
      try (Lease held = context.getBean(LockClient.class).lock("order:8").acquire()) {
        Orders orders = context.getBean(Orders.class);
        assertThat(CompletableFuture.supplyAsync(() -> orders.refund(8)).join()).isEqualTo("queued 8");
      }
      assertThat(context.getBean(Orders.class).refund(8)).isEqualTo("refunded");
    });
  }

  @Test
  void aCompletableFutureHoldsTheLockUntilItCompletes() {
    runner().run(context -> {
      LockClient client = context.getBean(LockClient.class);
      Orders orders = context.getBean(Orders.class);
      CompletableFuture<String> invoice = orders.invoice(5);
      assertThat(client.status("invoice:5").isHeld()).isTrue();
      CompletableFuture<String> second = CompletableFuture.supplyAsync(() -> orders.invoice(5)).join();
      assertThatThrownBy(second::join).hasCauseInstanceOf(LockTimeoutException.class);

      orders.pending().complete("paid");
      assertThat(invoice.join()).isEqualTo("paid");
      await().atMost(PROMPTLY).until(() -> !client.status("invoice:5").isHeld());
    });
  }

  @Test
  void holdAtLeastKeepsTheLockAfterTheMethodReturned() {
    runner().run(first -> runner().run(second -> {
      long start = System.nanoTime();
      assertThat(first.getBean(Orders.class).report()).isEqualTo("ran");
      assertThat(second.getBean(Orders.class).report()).isEqualTo("skipped");
      LockClient client = second.getBean(LockClient.class);
      await().atMost(PROMPTLY).until(() -> !client.status("daily-report").isHeld());
      assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(500));
      assertThat(second.getBean(Orders.class).report()).isEqualTo("ran");
    }));
  }

  @Test
  void aReadLockedMethodRunsBesideReadersAndNeverBesideAWriter() {
    runner().run(context -> {
      Orders orders = context.getBean(Orders.class);
      LockClient client = context.getBean(LockClient.class);
      try (Lease reading = client.readWriteLock("catalog").readLock().acquire()) {
        assertThat(orders.browse()).as("a read beside another reader").isTrue();
        assertThatThrownBy(orders::edit).as("a write beside a reader").isInstanceOf(LockTimeoutException.class);
      }
      try (Lease writing = client.lock("catalog").acquire()) {
        assertThatThrownBy(orders::browse).as("a read beside a writer").isInstanceOf(LockTimeoutException.class);
      }
      assertThatThrownBy(() -> orders.browseThenEdit(orders)).isInstanceOf(IllegalMonitorStateException.class)
          .hasMessageContaining("catalog");
      assertThat(orders.edit()).isEqualTo("edited");
    });
  }

  @Test
  void aNestedCallForTheSameKeyOnTheSameThreadDoesNotWait() {
    runner().run(context -> {
      Orders orders = context.getBean(Orders.class);
      assertThat(orders.audit(9, orders)).isTrue();
    });
  }

  @Test
  void closingTheContextReleasesTheLocksItsClientHolds() {
    runner().run(other -> runner().run(context -> {
      Lease lease = context.getBean(LockClient.class).lock("report").acquire();
      context.close();
      assertThat(lease.state()).isEqualTo(LeaseState.RELEASED);
      assertThat(other.getBean(LockClient.class).status("report").isHeld()).isFalse();
    }));
  }

  /** Closing the application on a lost lock: the context closes its client from the client's own event thread. */
  @Test
  void closingTheContextFromALostLockListenerIsPromptAndThrowsNothing() {
    runner().run(context -> {
      LockClient client = context.getBean(LockClient.class);
      CompletableFuture<Duration> closing = new CompletableFuture<>();
      Lease lease = client.lock("closes-on-loss").acquire(client.defaultOptions().withHoldTimeout(Duration.ofMillis(200)));
      lease.onLost(reason -> {
        long start = System.nanoTime();
        try {
          context.close();
          closing.complete(Duration.ofNanos(System.nanoTime() - start));
        } catch (Throwable t) {
          closing.completeExceptionally(t);
        }
      });
      assertThat(closing.get(10, TimeUnit.SECONDS)).as("the context's close, from the listener")
          .isLessThan(Duration.ofMillis(2500));
      assertThat(client.isClosed()).isTrue();
    });
  }
}
