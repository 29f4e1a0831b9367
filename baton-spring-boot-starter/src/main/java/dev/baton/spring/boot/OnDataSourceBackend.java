package dev.baton.spring.boot;

import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

/** Matches when {@code baton.backend} is unset or {@value BatonProperties#DATA_SOURCE}. */
final class OnDataSourceBackend extends SpringBootCondition {
  @Override
  public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
    String backend = context.getEnvironment().getProperty("baton.backend");
    if (backend == null || backend.isBlank()) {
      return ConditionOutcome.match("baton.backend is unset");
    }
    return backend.strip().equalsIgnoreCase(BatonProperties.DATA_SOURCE)
        ? ConditionOutcome.match("baton.backend is " + BatonProperties.DATA_SOURCE)
        : ConditionOutcome.noMatch("baton.backend names a store");
  }
}
