package dev.baton.spring.boot;

import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

/** Matches when {@code baton.backend} is unset: the starter then locks on a store the application configures. */
final class OnBackendUnset extends SpringBootCondition {
  @Override
  public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
    String backend = context.getEnvironment().getProperty("baton.backend");
    return backend == null || backend.isBlank() ? ConditionOutcome.match("baton.backend is unset")
        : ConditionOutcome.noMatch("baton.backend is set");
  }
}
