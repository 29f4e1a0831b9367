package dev.baton.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.LockClient;
import dev.baton.shedlock.BatonLockProvider;
import dev.baton.spring.integration.BatonLockRegistry;
import dev.baton.testkit.RedisServerExtension;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.locks.Lock;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.core.SimpleLock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.integration.support.locks.LockRegistry;

/** The starter gives ShedLock and Spring Integration their Baton lock provider and registry, on a real Redis server. */
@Timeout(30)
class IntegrationsAutoConfigurationTest {
  @RegisterExtension
  static final RedisServerExtension redis = new RedisServerExtension();

  private final ApplicationContextRunner runner = new ApplicationContextRunner()
      .withConfiguration(AutoConfigurations.of(BatonAutoConfiguration.class, BatonShedLockAutoConfiguration.class,
          BatonLockRegistryAutoConfiguration.class))
      .withPropertyValues("baton.backend=" + redis.uri());

  @Test
  void shedLockAndSpringIntegrationLockThroughTheClient() {
    runner.run(context -> {
      LockClient client = context.getBean(LockClient.class);
      SimpleLock job = context.getBean(LockProvider.class)
          .lock(new LockConfiguration(Instant.now(), "nightly", Duration.ofMinutes(1), Duration.ZERO)).orElseThrow();
      assertThat(client.status("shedlock/nightly").isHeld()).isTrue();
      job.unlock();

      Lock lock = context.getBean(LockRegistry.class).obtain("group-1");
      lock.lock();
      try {
        assertThat(client.status("spring-integration/group-1").isHeld()).isTrue();
      } finally {
        lock.unlock();
      }
    });
  }

  @Test
  void steppingAsideForTheApplicationsOwnOrWhenTheAdapterIsAbsent() {
    runner.withBean("ownProvider", LockProvider.class, () -> configuration -> Optional.empty())
        .run(context -> assertThat(context).doesNotHaveBean(BatonLockProvider.class).hasSingleBean(LockProvider.class));
    runner.withClassLoader(new FilteredClassLoader(BatonLockProvider.class, BatonLockRegistry.class))
        .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(LockProvider.class)
            .doesNotHaveBean(LockRegistry.class));
  }
}
