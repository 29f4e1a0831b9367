package dev.baton.reactor;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.DistributedLock;
import dev.baton.LockClient;
import dev.baton.memory.MemoryLockClient;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

/** Bad arguments fail at once, naming what to pass; a closed client is an error signal. */
class ReactiveBadInputTest {
  private static final Duration PROMPTLY = Duration.ofSeconds(10);

  @Test
  void nullsAndBadWaitTimesFailWhenTheMonoIsMade() {
    try (LockClient client = MemoryLockClient.connect("memory://reactor-" + UUID.randomUUID())) {
      DistributedLock lock = client.lock("bad-input");
      assertThatThrownBy(() -> ReactiveLocks.acquire(null)).isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("client.lock(key)");
      assertThatThrownBy(() -> ReactiveLocks.acquire(lock, (Duration) null))
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("Duration.ZERO");
      assertThatThrownBy(() -> ReactiveLocks.acquire(lock, Duration.ofSeconds(-1)))
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("PT-1S");
      assertThatThrownBy(() -> ReactiveLocks.withLock(lock, null)).isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("body");
      assertThatThrownBy(() -> ReactiveSemaphores.acquire(client.semaphore("bad-input", 2), Duration.ofSeconds(-1)))
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("PT-1S");
      assertThatThrownBy(() -> ReactiveSemaphores.withPermitMany(null, lease -> Mono.empty()))
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("client.semaphore");
      assertThatThrownBy(() -> ReactiveLeadership.terms(null, "bad-input"))
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("LockClient");
      assertThatThrownBy(() -> ReactiveLeases.release(null)).isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("lease");
    }
  }

  @Test
  void aClosedClientIsAnErrorSignal() {
    LockClient client = MemoryLockClient.connect("memory://reactor-" + UUID.randomUUID());
    DistributedLock lock = client.lock("closed");
    client.close();

    StepVerifier.create(ReactiveLocks.acquire(lock)).expectError(IllegalStateException.class).verify(PROMPTLY);
    StepVerifier.create(ReactiveLeadership.terms(client, "closed")).expectError(IllegalStateException.class)
        .verify(PROMPTLY);
  }
}
