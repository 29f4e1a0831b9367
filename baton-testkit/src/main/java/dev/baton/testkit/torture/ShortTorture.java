package dev.baton.testkit.torture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.baton.testkit.LockClientFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A short torture for CI: four worker JVMs for 20 s, a 1 s ttl, holders paused past the ttl and workers
 * killed in turn, unless a subclass names other {@link #faults()}. A backend's test extends it and says how to
 * reach its server; the report goes to {@code target/torture/<name>}.
 *
 * <p>It always checks what fencing promises: tokens grew, the register lost no update. It checks mutual
 * exclusion too unless {@link #mutualExclusionExpected()} says the faults can break it (a Redis failover).
 *
 * <p>Longer runs: {@code -Dbaton.torture.seconds=60 -Dbaton.torture.runs=10} runs ten 60 s tortures in a row,
 * each with its report in {@code target/torture/<name>/run-N}.
 */
public abstract class ShortTorture {
  /** Makes the workers' clients. */
  protected abstract Class<? extends LockClientFactory> factory();

  /** Where the store is, in the factory's form. */
  protected abstract String target();

  /** The report's folder under {@code target/torture}. */
  protected abstract String name();

  /** The faults to inject; pause and kill unless overridden. */
  protected Set<Fault> faults() {
    return EnumSet.of(Fault.PAUSE, Fault.KILL);
  }

  /** What the torture may do to the store, for faults other than pause and kill. */
  protected ServerFaults serverFaults() {
    return null;
  }

  /** Whether the store promises mutual exclusion under these faults. */
  protected boolean mutualExclusionExpected() {
    return true;
  }

  @Test
  void fencingAndMutualExclusionHoldUnderFaults() {
    int seconds = Integer.getInteger("baton.torture.seconds", 20);
    int runs = Integer.getInteger("baton.torture.runs", 1);
    assertTimeoutPreemptively(Duration.ofSeconds(runs * (seconds + 90L)), () -> {
      for (int run = 1; run <= runs; run++) {
        Path report = runs == 1 ? Path.of("target", "torture", name()) : Path.of("target", "torture", name(), "run-" + run);
        check(Torture.run(new TortureOptions(factory(), target(), "torture", 4, Duration.ofSeconds(seconds),
            Duration.ofSeconds(1), faults(), report), serverFaults()));
      }
    });
  }

  private void check(TortureResult result) {
    assertThat(result.tokensIncreased()).as(result.summary()).isTrue();
    assertThat(result.lostUpdates()).as(result.summary()).isZero();
    if (mutualExclusionExpected()) {
      assertThat(result.violations()).as(result.summary()).isEmpty();
    }
    assertThat(result.unexpectedExits()).as(result.summary()).isEmpty();
    assertThat(result.faults()).as("faults injected").hasSizeGreaterThanOrEqualTo(2);
    assertThat(result.holds()).as("holds").hasSizeGreaterThan(20);
    assertThat(result.acquisitionsPerWorker().values().stream().filter(holds -> holds > 0).count())
        .as("workers that held the lock").isGreaterThan(1);
  }
}
