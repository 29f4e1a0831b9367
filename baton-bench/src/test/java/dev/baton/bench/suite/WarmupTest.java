package dev.baton.bench.suite;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.Test;

/** When a warm-up ends: once the JIT has gone quiet, and at the limit if it never does. */
class WarmupTest {
  private static final Settings SETTINGS = new Settings(Duration.ofSeconds(4), Duration.ofSeconds(10), 5,
      Duration.ofSeconds(2), 10, 3, EnumSet.allOf(Store.class), EnumSet.allOf(Scenario.class));

  @Test
  void goesOnInStepsWhileTheJitCompilesAndEndsOnceItIsQuiet() throws Exception {
    ScriptedJit jit = new ScriptedJit(400, 120, 30, 5, 500);
    assertThat(Warmup.run(jit, Hold.LOCK, List.of("k"), SETTINGS)).isEqualTo(Duration.ofSeconds(7));
    assertThat(jit.durations).containsExactly(Duration.ofSeconds(4), Duration.ofSeconds(1), Duration.ofSeconds(1),
        Duration.ofSeconds(1));
  }

  @Test
  void endsAtTheLimitWhenTheJitNeverGoesQuiet() throws Exception {
    ScriptedJit jit = new ScriptedJit(400, 400, 400, 400, 400, 400, 400, 400, 400);
    assertThat(Warmup.run(jit, Hold.LOCK, List.of("k"), SETTINGS)).isEqualTo(Duration.ofSeconds(10));
    assertThat(jit.durations).hasSize(7);
  }

  @Test
  void aWarmUpWithoutRoomToGoOnIsTheFixedOne() throws Exception {
    ScriptedJit jit = new ScriptedJit(400);
    Settings fixed = new Settings(Duration.ofSeconds(4), 5, Duration.ofSeconds(2), 10, 3);
    assertThat(Warmup.run(jit, Hold.LOCK, List.of("k"), fixed)).isEqualTo(Duration.ofSeconds(4));
    assertThat(jit.durations).hasSize(1);
  }

  /** A contender elsewhere whose runs report the JIT's compile times given, one per run, in milliseconds. */
  private static final class ScriptedJit implements Contender, Load.Elsewhere {
    private final long[] compileMillis;
    private final List<Duration> durations = new ArrayList<>();

    ScriptedJit(long... compileMillis) {
      this.compileMillis = compileMillis;
    }

    @Override
    public Load.Result run(Hold hold, List<String> keys, Duration duration) {
      long compiled = compileMillis[durations.size()];
      durations.add(duration);
      return new Load.Result(1, duration.toNanos(), new Samples(), new Samples(), compiled);
    }

    @Override
    public Locker locker(String key, Hold hold) {
      throw new UnsupportedOperationException("runs elsewhere");
    }

    @Override
    public void close() {}
  }
}
