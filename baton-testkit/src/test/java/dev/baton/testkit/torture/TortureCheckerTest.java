package dev.baton.testkit.torture;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.testkit.LockClientFactory;
import dev.baton.testkit.torture.History.Event;
import dev.baton.testkit.torture.History.Kind;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The checker and the fenced register on made-up histories: what it calls explained, and what a violation. */
class TortureCheckerTest {
  private static final long MS = 1_000_000;
  private static final TortureOptions OPTIONS = new TortureOptions(LockClientFactory.class, "nowhere",
      "key", 2, Duration.ofSeconds(1), Duration.ofSeconds(1), EnumSet.of(Fault.PAUSE), null);

  private final FencedRegister register = new FencedRegister();

  @AfterEach
  void closeRegister() {
    register.close();
  }

  private static Event event(long ms, Kind kind, long token) {
    return new Event(ms * MS, kind, token, "-");
  }

  private TortureResult check(List<Torture.FaultEvent> faults, Map<String, List<Event>> histories) {
    return new TortureChecker(OPTIONS, register, faults, histories, 0, 10_000 * MS).check(List.of());
  }

  @Test
  void twoHoldersAtOnceWithoutALossOrAPauseIsAViolation() {
    register.handle("READ 1");
    register.handle("READ 2");
    assertThat(register.handle("WRITE 1 0 a")).startsWith("REJECTED");
    assertThat(register.handle("WRITE 2 0 b")).startsWith("OK ");
    TortureResult result = check(List.of(), Map.of(
        "a", List.of(event(0, Kind.GRANT, 1), event(1, Kind.READ, 1), event(50, Kind.WRITE_REJECTED, 1), event(60, Kind.RELEASE, 1)),
        "b", List.of(event(10, Kind.GRANT, 2), event(11, Kind.READ, 2), event(20, Kind.WRITE_OK, 2), event(30, Kind.RELEASE, 2))));

    assertThat(result.passed()).isFalse();
    assertThat(result.violations()).singleElement().satisfies(violation -> {
      assertThat(violation.what()).contains("never told");
      assertThat(violation.workers()).containsExactly("a", "b");
    });
    assertThat(result.rejectedWrites()).isEqualTo(1);
  }

  @Test
  void aHolderPausedPastItsTtlWhoseStaleWriteWasRejectedIsExplained() {
    register.handle("READ 1");
    register.handle("READ 2");
    register.handle("WRITE 2 0 b");
    assertThat(register.handle("WRITE 1 0 a")).startsWith("REJECTED");
    TortureResult result = check(List.of(new Torture.FaultEvent(Fault.PAUSE, "a", 5 * MS, 2_500 * MS)), Map.of(
        "a", List.of(event(0, Kind.GRANT, 1), event(1, Kind.READ, 1), event(2_600, Kind.WRITE_REJECTED, 1), event(2_601, Kind.RELEASE, 1)),
        "b", List.of(event(1_500, Kind.GRANT, 2), event(1_501, Kind.READ, 2), event(1_510, Kind.WRITE_OK, 2), event(1_520, Kind.RELEASE, 2))));

    assertThat(result.violations()).isEmpty();
    assertThat(result.explainedOverlaps()).isEqualTo(1);
    assertThat(result.tokensIncreased()).isTrue();
  }

  @Test
  void aWriteThatOverwritesOneItNeverReadIsALostUpdate() {
    assertThat(register.handle("WRITE 1 0 a")).startsWith("OK ");
    assertThat(register.handle("WRITE 2 0 b")).startsWith("OK ");
    TortureResult result = check(List.of(), Map.of());

    assertThat(result.lostUpdates()).isEqualTo(1);
    assertThat(result.violations()).extracting(TortureResult.Violation::what).anyMatch(what -> what.contains("lost update"));
  }

  @Test
  void twoHoldsWithOneTokenAreAViolation() {
    TortureResult result = check(List.of(), Map.of(
        "a", List.of(event(0, Kind.GRANT, 5), event(10, Kind.RELEASE, 5)),
        "b", List.of(event(20, Kind.GRANT, 5), event(30, Kind.RELEASE, 5))));

    assertThat(result.tokensIncreased()).isFalse();
    assertThat(result.passed()).isFalse();
  }

  @Test
  void aHolderPausedBetweenItsGrantAndItsRecordIsTheStaleOneThoughItRecordsLater() {
    register.handle("READ 2");
    assertThat(register.handle("READ 1")).startsWith("REJECTED");
    TortureResult result = check(List.of(new Torture.FaultEvent(Fault.PAUSE, "a", 5 * MS, 2_005 * MS)), Map.of(
        "a", List.of(event(0, Kind.ASK, 0), event(2_010, Kind.GRANT, 1), event(2_011, Kind.WRITE_REJECTED, 1),
            event(2_012, Kind.RELEASE, 1)),
        "b", List.of(event(1_500, Kind.ASK, 0), event(2_000, Kind.GRANT, 2), event(2_001, Kind.READ, 2),
            event(2_100, Kind.WRITE_OK, 2), event(2_101, Kind.RELEASE, 2))));

    assertThat(result.violations()).isEmpty();
    assertThat(result.explainedOverlaps()).isEqualTo(1);
  }

  @Test
  void theReportHasTheSummaryTheJsonAndThePicture() {
    TortureResult result = check(List.of(new Torture.FaultEvent(Fault.PAUSE, "a", 5 * MS, 2_500 * MS)), Map.of(
        "a", List.of(event(0, Kind.GRANT, 1), event(2_601, Kind.RELEASE, 1))));

    assertThat(result.summary()).startsWith("PASSED").contains("faults injected: 1");
    assertThat(TortureReport.json(result)).contains("\"passed\": true").contains("\"fault\":\"pause\"");
    assertThat(TortureReport.timeline(result).getWidth()).isPositive();
  }
}
