package dev.baton.testkit.torture;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.testkit.LockClientFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The short torture CI runs for each backend: four worker JVMs for 20 s, a 1 s ttl, holders paused past
 * the ttl and workers killed, in turn. A backend's test extends it and says how to reach its server; the
 * report goes to {@code target/torture/<backend>}.
 */
public abstract class ShortTorture {
  /** Makes the workers' clients. */
  protected abstract Class<? extends LockClientFactory> factory();

  /** Where the store is, in the factory's form. */
  protected abstract String target();

  /** The report's folder under {@code target/torture}. */
  protected abstract String name();

  @Test
  @Timeout(120)
  void mutualExclusionHoldsWhileHoldersArePausedAndWorkersKilled() throws InterruptedException {
    TortureOptions options = new TortureOptions(factory(), target(), "torture", 4, Duration.ofSeconds(20),
        Duration.ofSeconds(1), EnumSet.of(Fault.PAUSE, Fault.KILL), Path.of("target", "torture", name()));

    TortureResult result = Torture.run(options, null);

    assertThat(result.violations()).as(result.summary()).isEmpty();
    assertThat(result.tokensIncreased()).as(result.summary()).isTrue();
    assertThat(result.lostUpdates()).as(result.summary()).isZero();
    assertThat(result.faults()).as("faults injected").hasSizeGreaterThanOrEqualTo(4);
    assertThat(result.holds()).as("holds").hasSizeGreaterThan(20);
    assertThat(result.acquisitionsPerWorker().values().stream().filter(holds -> holds > 0).count())
        .as("workers that held the lock").isGreaterThan(1);
  }
}
