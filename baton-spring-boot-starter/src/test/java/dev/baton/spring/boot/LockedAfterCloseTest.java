package dev.baton.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.LockClient;
import dev.baton.LockOptions;
import dev.baton.spring.Locked;
import dev.baton.spring.LockedBeanPostProcessor;
import dev.baton.testkit.memory.InMemoryStore;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;

/**
 * Outside Spring Boot, Spring's default scheduler stops after the beans it runs, the client among them: a run that
 * comes as the application closes skips quietly, without an ERROR.
 */
@Timeout(60)
@ExtendWith(OutputCaptureExtension.class)
class LockedAfterCloseTest {

  @Test
  void aScheduledRunAfterTheClientClosedSkipsQuietly(CapturedOutput output) {
    try (InMemoryStore store = InMemoryStore.create()) {
      Ticks ticks = new Ticks();
      Attempts attempts = new Attempts();
      AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext();
      // Created in this order, destroyed in the reverse: the client first, then a bean that lets the job's
      // schedule fire a few more times before the job's bean goes and its schedule with it.
      context.registerBean("attempts", Attempts.class, () -> attempts);
      context.registerBean(Ticks.class, () -> ticks);
      context.registerBean(SlowToStop.class, () -> new SlowToStop(attempts));
      context.registerBean(LockClient.class, () -> store.connect(LockOptions.defaults()),
          bean -> bean.setDestroyMethodName("close"));
      context.register(PlainSpring.class);
      context.refresh();
      await().atMost(Duration.ofSeconds(10)).until(() -> ticks.runs.get() >= 20);
      context.close();
    }
    assertThat(output.getAll()).doesNotContain("ERROR").doesNotContain("Unexpected error occurred in scheduled task");
  }

  /** An application without Boot: scheduling on Spring's default scheduler, and @Locked declared by hand. */
  @Configuration(proxyBeanMethods = false)
  @EnableScheduling
  static class PlainSpring {
    @Bean
    static LockedBeanPostProcessor lockedBeanPostProcessor(ObjectProvider<LockClient> client) {
      return new LockedBeanPostProcessor(client);
    }
  }

  /** A job that runs as often as it can. */
  static class Ticks {
    final AtomicInteger runs = new AtomicInteger();

    @Scheduled(fixedDelay = 1)
    @Locked(key = "@attempts.next()", waitTime = "0")
    public void tick() {
      runs.incrementAndGet();
    }
  }

  /** Counts the job's calls, run or skipped: its key is computed at each. */
  static class Attempts {
    private final AtomicInteger count = new AtomicInteger();

    public String next() {
      count.incrementAndGet();
      return "tick";
    }
  }

  /** Stops once the job was called a few more times, after the client was closed. */
  static class SlowToStop implements DisposableBean {
    private final Attempts attempts;

    SlowToStop(Attempts attempts) {
      this.attempts = attempts;
    }

    @Override
    public void destroy() {
      int atStop = attempts.count.get();
      await().atMost(Duration.ofSeconds(10)).until(() -> attempts.count.get() >= atStop + 5);
    }
  }
}
