package dev.baton.testkit;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.DistributedLock;
import dev.baton.Lease;
import dev.baton.LockClient;
import dev.baton.LockOptions;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Bad keys, options and arguments are rejected with a message that names them. Part of the {@link LockClientContract}: it runs as a nested class of the backend's test.
 */
abstract class ContractBadInput extends ContractGroup {
  ContractBadInput(LockClientContract contract) {
    super(contract);
  }

  @Test
  @Timeout(30)
  void badKeysAreRejectedWithTheKeyInTheMessage() {
    LockClient client = newClient();
    assertThatThrownBy(() -> client.lock(null)).isInstanceOf(IllegalArgumentException.class);
    for (String blank : List.of("", "   ", " \t ")) {
      assertThatThrownBy(() -> client.lock(blank)).isInstanceOf(IllegalArgumentException.class);
    }
    assertThatThrownBy(() -> client.lock("k".repeat(300)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("300");
    for (String control : List.of("orders\n42", "orders\u000042")) {
      assertThatThrownBy(() -> client.lock(control))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContainingAll("orders", "42");
    }
    // Each encodes to the bytes of "coll?": accepted, they would be one lock at the store under three names.
    for (String unpaired : List.of("coll\uD800", "coll\uDC00")) {
      assertThatThrownBy(() -> client.lock(unpaired))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContainingAll("coll", "unpaired surrogate");
    }
  }

  @Test
  @Timeout(10)
  void badOptionsAreRejectedNamingTheField() {
    assertRejected("waitTime", () -> LockOptions.builder().waitTime(Duration.ofMillis(-1)));
    assertRejected("waitTime", () -> LockOptions.builder().waitTime(Duration.ofDays(366)));
    assertRejected("ttl", () -> LockOptions.builder().ttl(Duration.ZERO));
    assertRejected("ttl", () -> LockOptions.builder().ttl(Duration.ofMillis(-1)));
    assertRejected("ttl", () -> LockOptions.builder().ttl(LockOptions.MIN_TTL.minusMillis(1)));
    assertRejected("ttl", () -> LockOptions.builder().ttl(null));
    assertRejected("holdTimeout", () -> LockOptions.builder().holdTimeout(Duration.ZERO));
  }

  @Test
  @Timeout(30)
  void nullListenersAndConditionsAreRejected() throws Exception {
    DistributedLock lock = newClient().lock(key);
    try (Lease lease = lock.acquire(LONG_WAIT)) {
      assertThatThrownBy(() -> lease.onLost(null)).isInstanceOf(IllegalArgumentException.class);
    }
    assertThatThrownBy(lock::newCondition).isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> lock.acquire((LockOptions) null)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> newClient().lock(key, null)).isInstanceOf(IllegalArgumentException.class);
  }
}
