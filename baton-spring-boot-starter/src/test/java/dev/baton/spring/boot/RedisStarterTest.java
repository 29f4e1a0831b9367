package dev.baton.spring.boot;

import dev.baton.testkit.RedisServerExtension;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The starter on a real Redis server. */
class RedisStarterTest extends StarterContract {
  @RegisterExtension
  static final RedisServerExtension redis = new RedisServerExtension();

  @Override
  protected String backend() {
    return redis.uri();
  }

  @Override
  protected String backendName() {
    return "redis";
  }
}
