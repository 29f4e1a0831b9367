package dev.baton.spring.boot;

import java.util.List;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

/** Matches when one of the {@code spring.data.redis.*} properties that say where Redis is, is set. */
final class OnRedisProperties extends SpringBootCondition {
  private static final List<String> WHERE = List.of("url", "host", "port", "username", "password", "database",
      "ssl.enabled", "sentinel.master", "sentinel.nodes", "sentinel.nodes[0]", "cluster.nodes", "cluster.nodes[0]");

  @Override
  public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
    return WHERE.stream().map(name -> "spring.data.redis." + name).filter(context.getEnvironment()::containsProperty)
        .findFirst().map(name -> ConditionOutcome.match(name + " is set"))
        .orElseGet(() -> ConditionOutcome.noMatch("no spring.data.redis.* property says where Redis is"));
  }
}
