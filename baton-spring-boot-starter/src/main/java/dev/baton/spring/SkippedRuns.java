package dev.baton.spring;

import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.config.ConfigurableBeanFactory;
import org.springframework.util.ClassUtils;

/**
 * Counts the calls of {@link Locked} methods skipped because their lock was taken, as {@code baton.lock.skipped}
 * tagged with the method (not the key, which can take a value per call), in the application's
 * {@link MeterRegistry} if Micrometer is on the class path and the application has one, unless
 * {@code baton.metrics.enabled} is false, as for the client's other meters.
 */
final class SkippedRuns {
  private static final boolean MICROMETER_PRESENT =
      ClassUtils.isPresent("io.micrometer.core.instrument.MeterRegistry", SkippedRuns.class.getClassLoader());

  private final BeanFactory beanFactory;

  SkippedRuns(BeanFactory beanFactory) {
    this.beanFactory = beanFactory;
  }

  void count(LockedMethod method) {
    if (MICROMETER_PRESENT && beanFactory != null && metersEnabled()) {
      Micrometer.count(beanFactory, method.where());
    }
  }

  private boolean metersEnabled() {
    return !(beanFactory instanceof ConfigurableBeanFactory configurable)
        || !"false".equalsIgnoreCase(configurable.resolveEmbeddedValue("${baton.metrics.enabled:true}"));
  }

  /** Micrometer's types, loaded only when Micrometer is present. */
  private static final class Micrometer {
    private Micrometer() {}

    static void count(BeanFactory beanFactory, String method) {
      // Looked up at each skip rather than once: the registry may be created after the proxied bean, and skips
      // come at most once per scheduled tick.
      MeterRegistry registry = beanFactory.getBeanProvider(MeterRegistry.class).getIfUnique();
      if (registry != null) {
        registry.counter("baton.lock.skipped", "method", method).increment();
      }
    }
  }
}
