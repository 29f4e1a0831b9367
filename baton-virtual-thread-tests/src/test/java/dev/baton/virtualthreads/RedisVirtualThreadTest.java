package dev.baton.virtualthreads;

import dev.baton.testkit.RedisServerExtension;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The virtual-thread contract on a Redis server the test kit starts. */
class RedisVirtualThreadTest extends VirtualThreadContract {
  @RegisterExtension
  static final RedisServerExtension redis = new RedisServerExtension();

  @Override
  String uri() {
    return redis.uri();
  }
}
