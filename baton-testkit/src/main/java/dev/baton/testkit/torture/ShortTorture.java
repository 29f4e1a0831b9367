package dev.baton.testkit.torture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.baton.torture.Fault;
import dev.baton.torture.LockClientFactory;
import dev.baton.torture.Primitive;
import dev.baton.torture.ServerFaults;
import dev.baton.torture.Torture;
import dev.baton.torture.TortureOptions;
import dev.baton.torture.TortureResult;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A short torture for CI: four worker JVMs contend for a lock for 20 s (a read-write lock, a semaphore of
 * {@value #SEMAPHORE_PERMITS} permits or a leadership for {@value #PRIMITIVE_SECONDS} s), a 1 s ttl, the faults a
 * subclass names injected in turn. A backend's test extends it and says how to reach its server; the report goes
 * to {@code target/torture/<name>}.
 *
 * <p>It always checks what fencing promises: tokens grew, the register lost no update. It checks mutual
 * exclusion (the semaphore's bound) too unless {@link #mutualExclusionExpected()} says the faults can break it (a
 * Redis failover), and that readers and permit holders did hold together.
 *
 * <p>Longer runs: {@code -Dbaton.torture.seconds=60 -Dbaton.torture.runs=10} runs ten 60 s tortures in a row,
 * each with its report in {@code target/torture/<name>/run-N}; {@code -Dbaton.torture.ttl.ms=2000} sets the
 * ttl (a pause lasts twice as long).
 */
public abstract class ShortTorture {
  private static final int WORKERS = 4;
  /** Fewer than the workers, so that they ask for more than there are. */
  private static final int SEMAPHORE_PERMITS = 2;
  /** Shorter than the lock's: CI tortures each store's three other primitives besides, each in about 20 s. */
  private static final int PRIMITIVE_SECONDS = 15;

  private final Class<? extends LockClientFactory> factory;
  private final String name;
  private final Set<Fault> faults;
  private final Primitive primitive;

  /**
   * A torture of the lock.
   *
   * @param factory makes the workers' clients
   * @param name the report's folder under {@code target/torture}
   * @param faults the faults to inject
   */
  protected ShortTorture(Class<? extends LockClientFactory> factory, String name, Set<Fault> faults) {
    this(factory, name, faults, Primitive.LOCK);
  }

  /**
   * A torture of {@code primitive}.
   *
   * @param factory makes the workers' clients
   * @param name the report's folder under {@code target/torture}
   * @param faults the faults to inject
   * @param primitive what the workers contend for
   */
  protected ShortTorture(Class<? extends LockClientFactory> factory, String name, Set<Fault> faults,
      Primitive primitive) {
    this.factory = factory;
    this.name = name;
    this.faults = Set.copyOf(faults);
    this.primitive = primitive;
  }

  /** Pause and kill, the faults every backend is tortured with. */
  protected static Set<Fault> pauseAndKill() {
    return EnumSet.of(Fault.PAUSE, Fault.KILL);
  }

  /** Pause, kill and {@code more}. */
  protected static Set<Fault> pauseKillAnd(Fault more) {
    return EnumSet.of(Fault.PAUSE, Fault.KILL, more);
  }

  /** Where the store is, in the factory's form. */
  protected abstract String target();

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
    int seconds = Integer.getInteger("baton.torture.seconds", primitive == Primitive.LOCK ? 20 : PRIMITIVE_SECONDS);
    int runs = Integer.getInteger("baton.torture.runs", 1);
    Duration ttl = Duration.ofMillis(Integer.getInteger("baton.torture.ttl.ms", 1000));
    assertTimeoutPreemptively(Duration.ofSeconds(runs * (seconds + 90L)), () -> {
      for (int run = 1; run <= runs; run++) {
        Path report = runs == 1 ? Path.of("target", "torture", name) : Path.of("target", "torture", name, "run-" + run);
        check(Torture.run(new TortureOptions(factory, target(), "torture", WORKERS, Duration.ofSeconds(seconds),
            ttl, faults, report, primitive, primitive == Primitive.SEMAPHORE ? SEMAPHORE_PERMITS : 1),
            serverFaults()));
      }
    });
  }

  /**
   * How many holds show that the run did contend: fewer for a leadership, whose killed leader's term lasts as long as
   * its session at the store (3 s on etcd, whose server restarts then renew every lease), so that a loaded machine
   * saw 7 terms in 15 s where no fault was unexplained.
   */
  private int minimumHolds() {
    return primitive == Primitive.LEADERSHIP ? 4 : 20;
  }

  private void check(TortureResult result) {
    assertThat(result.tokensIncreased()).as(result.summary()).isTrue();
    assertThat(result.lostUpdates()).as(result.summary()).isZero();
    if (mutualExclusionExpected()) {
      assertThat(result.violations()).as(result.summary()).isEmpty();
    }
    assertThat(result.flags()).as(result.summary()).isEmpty();
    assertThat(result.unexpectedExits()).as(result.summary()).isEmpty();
    assertThat(result.faults()).as("faults injected").hasSizeGreaterThanOrEqualTo(2);
    assertThat(result.holds()).as("holds").hasSizeGreaterThan(minimumHolds());
    assertThat(result.acquisitionsPerWorker().values().stream().filter(holds -> holds > 0).count())
        .as("workers that held").isGreaterThan(1);
  }
}
