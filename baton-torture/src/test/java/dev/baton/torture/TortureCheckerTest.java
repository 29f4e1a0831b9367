package dev.baton.torture;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.torture.History.Event;
import dev.baton.torture.History.Kind;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The checker and the fenced register on made-up histories: what it calls explained, and what a violation. */
class TortureCheckerTest {
  private static final long MS = 1_000_000;

  private final FencedRegister register = new FencedRegister();

  @AfterEach
  void closeRegister() {
    register.close();
  }

  private static Event event(long ms, Kind kind, long token) {
    return new Event(ms * MS, kind, token, "-");
  }

  private static Event ask(long ms, String side) {
    return new Event(ms * MS, Kind.ASK, 0, side);
  }

  private static Torture.FaultEvent pause(String worker, long fromMs, long toMs) {
    return new Torture.FaultEvent(Fault.PAUSE, worker, fromMs * MS, toMs * MS);
  }

  private TortureResult check(Primitive primitive, int permits, List<Torture.FaultEvent> faults,
      Map<String, List<Event>> histories) {
    TortureOptions options = new TortureOptions(LockClientFactory.class, "nowhere", "key", 4, Duration.ofSeconds(1),
        Duration.ofSeconds(1), EnumSet.of(Fault.PAUSE), null, primitive, permits);
    return new TortureChecker(options, register, faults, histories, List.of(), 0, 10_000 * MS).check(List.of());
  }

  /** A multi-lock torture of 20 s on a 1 s ttl (a 4 s wait), each key's histories by worker. */
  private TortureResult checkMulti(List<Torture.FaultEvent> faults, Map<String, List<Event>> histories,
      List<Map<String, List<Event>>> keyHistories) {
    return checkMulti(faults, histories, keyHistories, Duration.ofSeconds(1));
  }

  /** The same, on a store that keeps a killed worker's entries for {@code crashBound}. */
  private TortureResult checkMulti(List<Torture.FaultEvent> faults, Map<String, List<Event>> histories,
      List<Map<String, List<Event>>> keyHistories, Duration crashBound) {
    TortureOptions options = new TortureOptions(LockClientFactory.class, "nowhere", "key", 4, Duration.ofSeconds(20),
        Duration.ofSeconds(1), EnumSet.of(Fault.PAUSE, Fault.KILL), null, Primitive.MULTI_LOCK, 1, crashBound);
    return new TortureChecker(options, register, faults, histories, keyHistories, 0, 20_000 * MS).check(List.of());
  }

  /** Holds of one worker, every second from 0 to 19 s, each 10 ms long, with growing tokens from {@code token}. */
  private static List<Event> steadyHolds(long token) {
    List<Event> events = new java.util.ArrayList<>();
    for (int s = 0; s < 20; s++) {
      events.add(ask(s * 1_000L, History.EXCLUSIVE));
      events.add(event(s * 1_000L + 1, Kind.GRANT, token + s));
      events.add(event(s * 1_000L + 10, Kind.RELEASE, token + s));
    }
    return events;
  }

  private TortureResult check(List<Torture.FaultEvent> faults, Map<String, List<Event>> histories) {
    return check(Primitive.LOCK, 1, faults, histories);
  }

  @Test
  void multiLocksOnDisjointKeysMayHoldAtOnceButTwoHoldersOfOneKeyMayNot() {
    Map<String, List<Event>> whole = Map.of("a", steadyHolds(100), "b", steadyHolds(200));
    List<Event> aHolds = List.of(ask(0, History.EXCLUSIVE), event(1, Kind.GRANT, 1), event(50, Kind.RELEASE, 1));
    List<Event> bHolds = List.of(ask(5, History.EXCLUSIVE), event(10, Kind.GRANT, 2), event(30, Kind.RELEASE, 2));
    List<Map<String, List<Event>>> apart = List.of(Map.of("a", aHolds), Map.of("b", bHolds), Map.of("a", aHolds),
        Map.of("b", bHolds), Map.of("a", aHolds));
    assertThat(checkMulti(List.of(), whole, apart).violations()).isEmpty();

    List<Map<String, List<Event>>> together = List.of(Map.of("a", aHolds, "b", bHolds), Map.of("b", bHolds),
        Map.of("a", aHolds), Map.of("b", bHolds), Map.of("a", aHolds));
    TortureResult result = checkMulti(List.of(), whole, together);
    assertThat(result.passed()).isFalse();
    assertThat(result.violations()).singleElement().satisfies(violation -> {
      assertThat(violation.what()).contains("never told").contains("on key 'key/0'");
      assertThat(violation.workers()).containsExactly("a", "b");
    });
  }

  @Test
  void aMultiLockTortureWithoutAGrantForLongerThanTheWaitTimeMadeNoProgress() {
    List<Event> stalled = List.of(ask(0, History.EXCLUSIVE), event(1, Kind.GRANT, 1), event(10, Kind.RELEASE, 1),
        ask(11, History.EXCLUSIVE), event(12_000, Kind.GRANT, 2), event(12_010, Kind.RELEASE, 2),
        ask(12_011, History.EXCLUSIVE), event(18_000, Kind.GRANT, 3), event(18_010, Kind.RELEASE, 3));
    Map<String, List<Event>> perKey = Map.of("a", stalled);
    TortureResult result = checkMulti(List.of(), Map.of("a", stalled),
        List.of(perKey, perKey, perKey, perKey, perKey));

    assertThat(result.violations()).singleElement().satisfies(violation ->
        assertThat(violation.what()).contains("no multi-lock granted for 11999 ms").contains("no progress"));
    assertThat(checkMulti(List.of(new Torture.FaultEvent(Fault.SERVER_RESTART, null, 2_000 * MS, 9_000 * MS)),
        Map.of("a", stalled), List.of(perKey, perKey, perKey, perKey, perKey)).violations())
        .as("a stall the store's restart explains").isEmpty();
    List<Torture.FaultEvent> kill = List.of(new Torture.FaultEvent(Fault.KILL, "w1", 1_000 * MS, 1_100 * MS));
    assertThat(checkMulti(kill, Map.of("a", stalled), List.of(perKey, perKey, perKey, perKey, perKey),
        Duration.ofSeconds(10)).violations())
        .as("a stall a killed worker's session explains (10 s on ZooKeeper's embedded server)").isEmpty();
    assertThat(checkMulti(kill, Map.of("a", stalled), List.of(perKey, perKey, perKey, perKey, perKey)).violations())
        .as("the same stall where the store frees a killed worker's entries within the 1 s ttl").hasSize(1);
  }

  @Test
  void aLingeringLockTortureWhereAWorkerWentWithoutAGrantForTwoWaitsFailsItsProgress() {
    TortureOptions options = new TortureOptions(LockClientFactory.class, "nowhere", "key", 4, Duration.ofSeconds(20),
        Duration.ofSeconds(1), EnumSet.of(Fault.PAUSE), null, Primitive.LINGER, 1);
    List<Event> steady = steadyHolds(100);
    List<Event> starved = new java.util.ArrayList<>(steady.subList(0, 9)); // holds at 0, 1 and 2 s
    starved.addAll(steady.subList(45, 60)); // then at 15 to 19 s: 13 s without one, the bound 2 x 4 s + 3 s
    TortureResult passing = new TortureChecker(options, register, List.of(), Map.of("a", steady), List.of(), 0,
        20_000 * MS).check(List.of());
    assertThat(passing.violations()).isEmpty();

    TortureResult result = new TortureChecker(options, register, List.of(), Map.of("a", starved), List.of(), 0,
        20_000 * MS).check(List.of());
    assertThat(result.violations()).singleElement().satisfies(violation -> {
      assertThat(violation.what()).contains("worker a got no lingering lock for 13000 ms");
      assertThat(violation.workers()).containsExactly("a");
    });
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
    TortureResult result = check(List.of(pause("a", 5, 2_500)), Map.of(
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
  void aHoldGrantedBeforeAnotherWasAskedForHasTheLowerToken() {
    TortureResult result = check(List.of(), Map.of(
        "a", List.of(ask(0, History.EXCLUSIVE), event(1, Kind.GRANT, 7), event(10, Kind.RELEASE, 7)),
        "b", List.of(ask(20, History.EXCLUSIVE), event(21, Kind.GRANT, 6), event(30, Kind.RELEASE, 6))));

    assertThat(result.tokensIncreased()).isFalse();
    assertThat(result.violations()).extracting(TortureResult.Violation::what)
        .anyMatch(what -> what.contains("token 6 granted to a holder that asked after token 7"));
  }

  @Test
  void aHolderPausedBetweenItsGrantAndItsRecordIsTheStaleOneThoughItRecordsLater() {
    register.handle("READ 2");
    assertThat(register.handle("READ 1")).startsWith("REJECTED");
    TortureResult result = check(List.of(pause("a", 5, 2_005)), Map.of(
        "a", List.of(ask(0, History.EXCLUSIVE), event(2_010, Kind.GRANT, 1), event(2_011, Kind.READ_REJECTED, 1),
            event(2_012, Kind.RELEASE, 1)),
        "b", List.of(ask(1_500, History.EXCLUSIVE), event(2_000, Kind.GRANT, 2), event(2_001, Kind.READ, 2),
            event(2_100, Kind.WRITE_OK, 2), event(2_101, Kind.RELEASE, 2))));

    assertThat(result.violations()).isEmpty();
    assertThat(result.explainedOverlaps()).isEqualTo(1);
  }

  @Test
  void theReportHasTheSummaryTheJsonAndThePicture() {
    TortureResult result = check(List.of(pause("a", 5, 2_500)), Map.of(
        "a", List.of(event(0, Kind.GRANT, 1), event(2_601, Kind.RELEASE, 1))));

    assertThat(result.summary()).startsWith("PASSED").contains("faults injected: 1");
    assertThat(TortureReport.json(result)).contains("\"passed\": true").contains("\"fault\":\"pause\"")
        .contains("\"primitive\": \"lock\"");
    assertThat(TortureReport.timeline(result).getWidth()).isPositive();
  }

  // Readers together, a writer alone: the pairs in which one held alone must not overlap.
  private TortureResult checkReadWrite(List<Torture.FaultEvent> faults, Map<String, List<Event>> histories) {
    return check(Primitive.READ_WRITE, 1, faults, histories);
  }

  @Test
  void readersHoldingTogetherPassAndShowHowManyAtOnce() {
    TortureResult result = checkReadWrite(List.of(), Map.of(
        "a", List.of(ask(0, History.SHARED), event(1, Kind.GRANT, 1), event(2, Kind.READ, 1), event(30, Kind.RELEASE, 1)),
        "b", List.of(ask(0, History.SHARED), event(3, Kind.GRANT, 2), event(4, Kind.READ, 2), event(40, Kind.RELEASE, 2)),
        "c", List.of(ask(5, History.EXCLUSIVE), event(41, Kind.GRANT, 3), event(42, Kind.READ, 3),
            event(45, Kind.WRITE_OK, 3), event(46, Kind.RELEASE, 3))));

    assertThat(result.passed()).as(result.summary()).isTrue();
    assertThat(result.mostSharedAtOnce()).isEqualTo(2);
    assertThat(result.summary()).contains("most readers at once: 2", "2 by readers, 1 by writers");
  }

  @Test
  void aWriterOverlappingAReaderIsAViolation() {
    TortureResult result = checkReadWrite(List.of(), Map.of(
        "a", List.of(ask(0, History.SHARED), event(1, Kind.GRANT, 1), event(2, Kind.READ, 1), event(30, Kind.RELEASE, 1)),
        "b", List.of(ask(0, History.SHARED), event(3, Kind.GRANT, 2), event(4, Kind.READ, 2), event(10, Kind.RELEASE, 2)),
        "c", List.of(ask(5, History.EXCLUSIVE), event(20, Kind.GRANT, 3), event(21, Kind.READ, 3),
            event(25, Kind.WRITE_OK, 3), event(26, Kind.RELEASE, 3))));

    assertThat(result.passed()).isFalse();
    assertThat(result.violations()).singleElement().satisfies(violation -> {
      assertThat(violation.what()).contains("reader token 1 (never told", "writer token 3");
      assertThat(violation.workers()).containsExactly("a", "c");
    });
  }

  @Test
  void aReaderPausedPastItsTtlAndOverlappedByAWriterAfterItsReadIsExplained() {
    TortureResult result = checkReadWrite(List.of(pause("a", 5, 2_500)), Map.of(
        "a", List.of(ask(0, History.SHARED), event(1, Kind.GRANT, 1), event(2, Kind.READ, 1), event(2_600, Kind.RELEASE, 1)),
        "b", List.of(ask(0, History.SHARED), event(3, Kind.GRANT, 2), event(4, Kind.READ, 2), event(10, Kind.RELEASE, 2)),
        "c", List.of(ask(5, History.EXCLUSIVE), event(1_500, Kind.GRANT, 3), event(1_501, Kind.READ, 3),
            event(1_510, Kind.WRITE_OK, 3), event(1_520, Kind.RELEASE, 3))));

    assertThat(result.violations()).isEmpty();
    assertThat(result.explainedOverlaps()).isEqualTo(1);
  }

  @Test
  void readersThatNeverHeldTogetherAreFlagged() {
    TortureResult result = checkReadWrite(List.of(), Map.of(
        "a", List.of(ask(0, History.SHARED), event(1, Kind.GRANT, 1), event(10, Kind.RELEASE, 1)),
        "b", List.of(ask(0, History.EXCLUSIVE), event(11, Kind.GRANT, 2), event(20, Kind.RELEASE, 2)),
        "c", List.of(ask(0, History.SHARED), event(21, Kind.GRANT, 3), event(30, Kind.RELEASE, 3))));

    assertThat(result.violations()).isEmpty();
    assertThat(result.passed()).isFalse();
    assertThat(result.flags()).singleElement().asString().contains("readers never held at once");
    assertThat(result.summary()).startsWith("FLAGGED").contains("FLAG: readers never held at once");
  }

  @Test
  void aPausedReaderBesideAnotherShowsNoSharing() {
    // a store that held readers one at a time: b is granted once a's lease expired during its pause
    TortureResult result = checkReadWrite(List.of(pause("a", 5, 2_500)), Map.of(
        "a", List.of(ask(0, History.SHARED), event(1, Kind.GRANT, 1), event(2_600, Kind.RELEASE, 1)),
        "b", List.of(ask(0, History.SHARED), event(1_500, Kind.GRANT, 2), event(1_600, Kind.RELEASE, 2)),
        "c", List.of(ask(0, History.EXCLUSIVE), event(2_700, Kind.GRANT, 3), event(2_800, Kind.RELEASE, 3))));

    assertThat(result.mostSharedAtOnce()).isEqualTo(1);
    assertThat(result.flags()).singleElement().asString().contains("readers never held at once");
  }

  @Test
  void aWritersTokenBelowAReadersGrantedBeforeItIsAViolation() {
    TortureResult result = checkReadWrite(List.of(), Map.of(
        "a", List.of(ask(0, History.SHARED), event(1, Kind.GRANT, 8), event(10, Kind.RELEASE, 8)),
        "b", List.of(ask(0, History.SHARED), event(2, Kind.GRANT, 9), event(10, Kind.RELEASE, 9)),
        "c", List.of(ask(0, History.EXCLUSIVE), event(11, Kind.GRANT, 7), event(20, Kind.RELEASE, 7))));

    assertThat(result.tokensIncreased()).isFalse();
    assertThat(result.violations()).extracting(TortureResult.Violation::what)
        .anyMatch(what -> what.contains("token 7 of a hold alone is not larger than token 9"));
  }

  @Test
  void theRegisterServesReadersTogetherAndFencesOffWhatAWriterOutdated() {
    assertThat(register.handle("READ_SHARED 5")).startsWith("VALUE 0 ");
    assertThat(register.handle("READ_SHARED 4")).as("a reader beside a newer one").startsWith("VALUE 0 ");
    assertThat(register.handle("WRITE 3 0 w")).as("a writer older than a reader that read").startsWith("REJECTED");
    assertThat(register.handle("READ 6")).startsWith("VALUE 0 ");
    assertThat(register.handle("WRITE 6 0 w")).startsWith("OK ");
    assertThat(register.handle("READ_SHARED 5")).as("a reader older than the last writer").startsWith("REJECTED");
    assertThat(register.handle("READ_SHARED 7")).startsWith("VALUE 1 ");
    assertThat(register.rejected()).isEqualTo(2);
  }

  // At most N permit holders at once, and as many as N at some moment.
  private TortureResult checkSemaphore(List<Torture.FaultEvent> faults, Map<String, List<Event>> histories) {
    return check(Primitive.SEMAPHORE, 2, faults, histories);
  }

  @Test
  void asManyHoldersAsPermitsPass() {
    TortureResult result = checkSemaphore(List.of(), Map.of(
        "a", List.of(ask(0, History.SHARED), event(1, Kind.GRANT, 1), event(20, Kind.RELEASE, 1)),
        "b", List.of(ask(0, History.SHARED), event(2, Kind.GRANT, 2), event(30, Kind.RELEASE, 2)),
        "c", List.of(ask(0, History.SHARED), event(21, Kind.GRANT, 3), event(40, Kind.RELEASE, 3))));

    assertThat(result.passed()).as(result.summary()).isTrue();
    assertThat(result.summary()).contains("most permit holders at once: 2 of 2 permits");
  }

  @Test
  void oneHolderMoreThanThePermitsIsAViolation() {
    TortureResult result = checkSemaphore(List.of(), Map.of(
        "a", List.of(ask(0, History.SHARED), event(1, Kind.GRANT, 1), event(20, Kind.RELEASE, 1)),
        "b", List.of(ask(0, History.SHARED), event(2, Kind.GRANT, 2), event(30, Kind.RELEASE, 2)),
        "c", List.of(ask(0, History.SHARED), event(10, Kind.GRANT, 3), event(40, Kind.RELEASE, 3))));

    assertThat(result.passed()).isFalse();
    assertThat(result.violations()).singleElement().satisfies(violation -> {
      assertThat(violation.what()).contains("3 permit holders at once of 2 permits");
      assertThat(violation.workers()).containsExactlyInAnyOrder("a", "b", "c");
    });
  }

  @Test
  void aHolderPausedPastItsTtlExplainsTheExcessWhateverItsToken() {
    // b's permit expired during its pause and went to c; a, with the lowest token, held all along
    TortureResult result = checkSemaphore(List.of(pause("b", 5, 2_500)), Map.of(
        "a", List.of(ask(0, History.SHARED), event(1, Kind.GRANT, 1), event(3_000, Kind.RELEASE, 1)),
        "b", List.of(ask(0, History.SHARED), event(2, Kind.GRANT, 2), event(2_600, Kind.RELEASE, 2)),
        "c", List.of(ask(0, History.SHARED), event(1_500, Kind.GRANT, 3), event(1_600, Kind.RELEASE, 3))));

    assertThat(result.violations()).isEmpty();
    assertThat(result.explainedOverlaps()).isEqualTo(1);
    assertThat(result.summary()).contains("1 explained");
  }

  @Test
  void aHolderToldItLostItsPermitExplainsTheExcess() {
    TortureResult result = checkSemaphore(List.of(), Map.of(
        "a", List.of(ask(0, History.SHARED), event(1, Kind.GRANT, 1), event(3_000, Kind.RELEASE, 1)),
        "b", List.of(ask(0, History.SHARED), event(2, Kind.GRANT, 2), event(1_400, Kind.LOST, 2), event(2_600, Kind.RELEASE, 2)),
        "c", List.of(ask(0, History.SHARED), event(1_500, Kind.GRANT, 3), event(1_600, Kind.RELEASE, 3))));

    assertThat(result.violations()).isEmpty();
    assertThat(result.explainedOverlaps()).isEqualTo(1);
  }

  @Test
  void aSemaphoreNeverHeldByAsManyAsItsPermitsIsFlagged() {
    TortureResult result = checkSemaphore(List.of(), Map.of(
        "a", List.of(ask(0, History.SHARED), event(1, Kind.GRANT, 1), event(10, Kind.RELEASE, 1)),
        "b", List.of(ask(0, History.SHARED), event(11, Kind.GRANT, 2), event(20, Kind.RELEASE, 2))));

    assertThat(result.passed()).isFalse();
    assertThat(result.flags()).singleElement().asString().contains("never more than 1 permit holders at once of 2");
  }

  // One leader at a time, each term's token larger, a revoked leader told before the next is elected.
  private TortureResult checkLeadership(List<Torture.FaultEvent> faults, Map<String, List<Event>> histories) {
    return check(Primitive.LEADERSHIP, 1, faults, histories);
  }
  @Test
  void aLeaderPausedThroughItsTermIsStaleThoughItStoodAgainBeforeItsRevocationWasRecorded() {
    // a's term 1 expired during its pause and went to b; on resuming, a's candidacy stood again (its ASK) on the worker
    // thread before the events thread recorded the revocation of term 1: the term is still the one paused
    register.handle("READ 1");
    register.handle("READ 2");
    register.handle("WRITE 2 0 b");
    assertThat(register.handle("WRITE 1 0 a")).startsWith("REJECTED");
    TortureResult result = checkLeadership(List.of(pause("a", 5, 2_500)), Map.of(
        "a", List.of(ask(0, History.EXCLUSIVE), event(1, Kind.GRANT, 1), event(2, Kind.READ, 1),
            event(2_501, Kind.WRITE_REJECTED, 1), ask(2_503, History.EXCLUSIVE), event(2_502, Kind.LOST, 1),
            event(2_504, Kind.RELEASE, 1)),
        "b", List.of(ask(3, History.EXCLUSIVE), event(1_500, Kind.GRANT, 2), event(1_501, Kind.READ, 2),
            event(1_510, Kind.WRITE_OK, 2), event(1_520, Kind.RELEASE, 2))));

    assertThat(result.violations()).as(result.summary()).isEmpty();
    assertThat(result.tokensIncreased()).isTrue();
    assertThat(result.explainedOverlaps()).isEqualTo(1);
  }


  @Test
  void termsOneAfterAnotherWithGrowingTokensPass() {
    register.handle("READ 1");
    register.handle("WRITE 1 0 a");
    register.handle("READ 1");
    register.handle("WRITE 1 1 a");
    register.handle("READ 2");
    register.handle("WRITE 2 2 b");
    TortureResult result = checkLeadership(List.of(), Map.of(
        "a", List.of(ask(0, History.EXCLUSIVE), event(1, Kind.GRANT, 1), event(2, Kind.READ, 1),
            event(3, Kind.WRITE_OK, 1), event(4, Kind.READ, 1), event(5, Kind.WRITE_OK, 1), event(6, Kind.RELEASE, 1)),
        "b", List.of(ask(0, History.EXCLUSIVE), event(7, Kind.GRANT, 2), event(8, Kind.READ, 2),
            event(9, Kind.WRITE_OK, 2), event(10, Kind.RELEASE, 2))));

    assertThat(result.passed()).as(result.summary()).isTrue();
    assertThat(result.summary()).contains("terms: 2");
  }

  @Test
  void twoLeadersAtOnceAreAViolation() {
    TortureResult result = checkLeadership(List.of(), Map.of(
        "a", List.of(ask(0, History.EXCLUSIVE), event(1, Kind.GRANT, 1), event(50, Kind.RELEASE, 1)),
        "b", List.of(ask(0, History.EXCLUSIVE), event(10, Kind.GRANT, 2), event(60, Kind.RELEASE, 2))));

    assertThat(result.passed()).isFalse();
    assertThat(result.violations()).singleElement().satisfies(violation -> {
      assertThat(violation.what()).contains("leader token 1 (never told it lost its term", "leader token 2");
      assertThat(violation.workers()).containsExactly("a", "b");
    });
  }

  @Test
  void aLeaderRevokedAfterTheNextWasElectedIsAViolationThoughItWasTold() {
    TortureResult result = checkLeadership(List.of(), Map.of(
        "a", List.of(ask(0, History.EXCLUSIVE), event(1, Kind.GRANT, 1), event(50, Kind.LOST, 1),
            event(50, Kind.RELEASE, 1)),
        "b", List.of(ask(0, History.EXCLUSIVE), event(40, Kind.GRANT, 2), event(60, Kind.RELEASE, 2))));

    assertThat(result.violations()).singleElement().extracting(TortureResult.Violation::what).asString()
        .contains("revoked 10 ms after the next leader was elected");
  }

  @Test
  void aLeaderPausedPastItsTtlWhoseStaleWriteWasRejectedIsExplained() {
    register.handle("READ 1");
    register.handle("READ 2");
    register.handle("WRITE 2 0 b");
    assertThat(register.handle("WRITE 1 0 a")).startsWith("REJECTED");
    TortureResult result = checkLeadership(List.of(pause("a", 5, 2_500)), Map.of(
        "a", List.of(ask(0, History.EXCLUSIVE), event(1, Kind.GRANT, 1), event(2, Kind.READ, 1),
            event(2_550, Kind.LOST, 1), event(2_550, Kind.RELEASE, 1), event(2_600, Kind.WRITE_REJECTED, 1)),
        "b", List.of(ask(0, History.EXCLUSIVE), event(1_500, Kind.GRANT, 2), event(1_501, Kind.READ, 2),
            event(1_510, Kind.WRITE_OK, 2), event(1_520, Kind.RELEASE, 2))));

    assertThat(result.violations()).isEmpty();
    assertThat(result.explainedOverlaps()).isEqualTo(1);
  }

  @Test
  void aPausedLeaderWhoseWriteLandedAfterTheNextLeaderReadIsAViolation() {
    TortureResult result = checkLeadership(List.of(pause("a", 5, 2_500)), Map.of(
        "a", List.of(ask(0, History.EXCLUSIVE), event(1, Kind.GRANT, 1), event(2, Kind.READ, 1),
            event(2_550, Kind.WRITE_OK, 1), event(2_560, Kind.LOST, 1), event(2_560, Kind.RELEASE, 1)),
        "b", List.of(ask(0, History.EXCLUSIVE), event(1_500, Kind.GRANT, 2), event(1_501, Kind.READ, 2),
            event(2_600, Kind.RELEASE, 2))));

    assertThat(result.violations()).singleElement().extracting(TortureResult.Violation::what).asString()
        .contains("stale access served after the newer holder read");
  }

  @Test
  void aTermWhoseTokenIsNotLargerThanTheLastOnesIsAViolation() {
    TortureResult result = checkLeadership(List.of(), Map.of(
        "a", List.of(ask(0, History.EXCLUSIVE), event(1, Kind.GRANT, 5), event(10, Kind.RELEASE, 5)),
        "b", List.of(ask(0, History.EXCLUSIVE), event(11, Kind.GRANT, 4), event(20, Kind.RELEASE, 4))));

    assertThat(result.tokensIncreased()).isFalse();
    assertThat(result.passed()).isFalse();
  }
}
