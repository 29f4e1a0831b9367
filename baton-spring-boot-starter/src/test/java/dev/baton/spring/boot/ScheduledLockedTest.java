package dev.baton.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.Lease;
import dev.baton.LockClient;
import dev.baton.LockOptions;
import dev.baton.LockTimeoutException;
import dev.baton.spring.Locked;
import dev.baton.spring.WhenTaken;
import dev.baton.testkit.memory.InMemoryStore;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;

/**
 * {@code @Locked} on scheduled jobs, in instances of an application that share Baton's in-memory store: the
 * instance that does not get the lock skips the tick quietly, as ShedLock does.
 */
@Timeout(60)
@ExtendWith(OutputCaptureExtension.class)
class ScheduledLockedTest {
  private static final Duration PROMPTLY = Duration.ofSeconds(10);

  private final InMemoryStore store = InMemoryStore.create();
  private final Jobs jobs = new Jobs();
  private final Busy busy = new Busy();

  @AfterEach
  void closeStore() {
    store.close();
  }

  private ApplicationContextRunner instance() {
    return new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(BatonAutoConfiguration.class))
        .withBean(LockClient.class, () -> store.connect(LockOptions.defaults()),
            bean -> bean.setDestroyMethodName("close"))
        .withBean(MeterRegistry.class, SimpleMeterRegistry::new)
        .withBean(Jobs.class, () -> jobs)
        .withUserConfiguration(Scheduling.class);
  }

  @Test
  void aScheduledJobWhoseLockIsHeldElsewhereSkipsQuietlyAndIsCounted(CapturedOutput output) throws Exception {
    try (LockClient other = store.connect(LockOptions.defaults()); Lease held = other.lock("nightly").acquire()) {
      instance().run(context -> {
        await().atMost(PROMPTLY).until(() -> skipped(context, "Jobs.nightly()") >= 3);
        assertThat(jobs.nightlyRuns.get()).as("runs while the lock is held elsewhere").isZero();
        assertThat(output.getAll()).doesNotContain("LockTimeoutException").doesNotContain("ERROR")
            .doesNotContain("Unexpected error occurred in scheduled task");
      });
    }
  }

  /** How many calls of {@code method} the context's registry counts as skipped: none before the first. */
  private static double skipped(ApplicationContext context, String method) {
    Counter counter = context.getBean(MeterRegistry.class).find("baton.lock.skipped").tag("method", method).counter();
    return counter == null ? 0 : counter.count();
  }

  @Test
  void aCallThatIsNotScheduledStillThrows() {
    instance().run(context -> {
      try (Lease held = context.getBean(LockClient.class).lock("nightly").acquire()) {
        Jobs proxy = context.getBean(Jobs.class);
        assertThatThrownBy(proxy::nightlyByHand).isInstanceOf(LockTimeoutException.class)
            .hasMessageContaining("nightly");
      }
    });
  }

  @Test
  void anExplicitSkipReturnsNothingAndTheFallbackStillAnswers() {
    instance().run(context -> {
      try (Lease held = context.getBean(LockClient.class).lock("nightly").acquire()) {
        Jobs proxy = context.getBean(Jobs.class);
        assertThat(proxy.countIfFree()).isZero();
        assertThat(proxy.nameIfFree()).isNull();
        assertThat(proxy.nameOrFallback()).isEqualTo("fell back");
        assertThat(skipped(context, "Jobs.countIfFree()")).isEqualTo(1);
      }
      // The scheduled nightly() takes the same key every 20 ms, so a call may meet it there: each runs once free.
      Jobs proxy = context.getBean(Jobs.class);
      await().atMost(PROMPTLY).until(proxy::countIfFree, count -> count == 1);
      await().atMost(PROMPTLY).until(proxy::nameOrFallback, "ran"::equals);
    });
  }

  @Test
  void withMetricsOffASkipIsNotCounted() {
    instance().withPropertyValues("baton.metrics.enabled=false").run(context -> {
      try (Lease held = context.getBean(LockClient.class).lock("nightly").acquire()) {
        assertThat(context.getBean(Jobs.class).countIfFree()).isZero();
        assertThat(skipped(context, "Jobs.countIfFree()")).isZero();
      }
    });
  }

  @Test
  void twoScheduledInstancesNeverRunTheJobAtOnce() {
    ApplicationContextRunner withBusyJob = instance().withBean(Busy.class, () -> busy);
    withBusyJob.run(first -> withBusyJob.run(second -> {
      await().atMost(PROMPTLY)
          .until(() -> busy.runs.get() >= 30 && skipped(first, "Busy.run()") + skipped(second, "Busy.run()") > 0);
      assertThat(busy.activity.maxRunning()).isEqualTo(1);
    }));
  }

  /** The application's scheduling, on a scheduler that stops with the context before its beans go, as Boot's does. */
  @Configuration(proxyBeanMethods = false)
  @EnableScheduling
  static class Scheduling {
    @Bean
    ThreadPoolTaskScheduler taskScheduler() {
      return new ThreadPoolTaskScheduler();
    }
  }

  /** One application's jobs; the same instance in every context of a test, so their runs add up. */
  static class Jobs {
    final AtomicInteger nightlyRuns = new AtomicInteger();

    @Scheduled(fixedDelay = 20)
    @Locked(key = "'nightly'", waitTime = "0")
    public void nightly() {
      nightlyRuns.incrementAndGet();
    }

    @Locked(key = "'nightly'", waitTime = "0")
    public void nightlyByHand() {
      nightlyRuns.incrementAndGet();
    }

    @Locked(key = "'nightly'", waitTime = "0", whenTaken = WhenTaken.SKIP)
    public int countIfFree() {
      return 1;
    }

    @Locked(key = "'nightly'", waitTime = "0", whenTaken = WhenTaken.SKIP)
    public String nameIfFree() {
      return "ran";
    }

    @Locked(key = "'nightly'", waitTime = "0", fallback = "fellBack")
    public String nameOrFallback() {
      return "ran";
    }

    public String fellBack() {
      return "fell back";
    }
  }

  /** A job scheduled as often as it can be, shared by both instances: how many of its runs overlap. */
  static class Busy {
    final AtomicInteger runs = new AtomicInteger();
    final Activity activity = new Activity();

    @Scheduled(fixedDelay = 1)
    @Locked(key = "'busy'", waitTime = "0")
    public void run() {
      activity.enter();
      Thread.yield();
      activity.leave();
      runs.incrementAndGet();
    }
  }
}
