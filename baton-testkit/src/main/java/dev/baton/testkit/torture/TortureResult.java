package dev.baton.testkit.torture;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * What a torture found. {@link #passed()} is false on any violation: an overlap of holds that neither a lost
 * lease nor a pause explains, a lost update in the register, or a fencing token that did not grow.
 *
 * @param options how it ran
 * @param startNanos when it started ({@link System#nanoTime()})
 * @param endNanos when its workers had stopped
 * @param holds every hold of every worker, in order of grant
 * @param faults every injected fault
 * @param violations what broke mutual exclusion or fencing
 * @param explainedOverlaps stale holds that others overlapped, whose holder had been told it lost the lock or was paused past its
 *     ttl, and whose stale write the register rejected (or landed before the next holder read)
 * @param acceptedWrites writes the register took
 * @param rejectedWrites writes the register refused for a stale token
 * @param lostUpdates accepted writes that overwrote a write their holder never read
 * @param tokensIncreased whether the tokens the register accepted strictly grew, and no two holds had one token
 * @param longestGapAfterFault the longest time without a holder after a fault healed
 * @param timeouts acquisitions that gave up after the wait time
 * @param errors calls that failed (store unreachable and the like)
 * @param acquisitionsPerWorker holds per worker
 * @param unexpectedExits workers that exited without being killed (a harness or client failure), with their
 *     last output; each was replaced
 */
public record TortureResult(TortureOptions options, long startNanos, long endNanos, List<Hold> holds,
    List<Torture.FaultEvent> faults, List<Violation> violations, int explainedOverlaps, long acceptedWrites,
    long rejectedWrites, long lostUpdates, boolean tokensIncreased, Duration longestGapAfterFault, long timeouts,
    long errors, Map<String, Integer> acquisitionsPerWorker, List<String> unexpectedExits) {

  private static final int VIOLATIONS_SHOWN = 20;

  /** Whether nothing broke. */
  public boolean passed() {
    return violations.isEmpty();
  }

  /**
   * One hold of the lock by one worker, from the return of its acquire to the start of its release.
   * {@code paused} says whether a pause past the ttl hit the worker between its call to acquire and its
   * release: the store may have granted the lock before the pause and let it expire during it.
   */
  public record Hold(String worker, long token, long startNanos, long endNanos, boolean lost, boolean paused,
      long readNanos, Write write, long writeNanos) {}

  /** What became of a hold's write. */
  public enum Write { ACCEPTED, REJECTED, NONE }

  /** Something that broke what the lock promises. */
  public record Violation(String what, long atNanos, List<String> workers) {}

  /** The text summary. */
  public String summary() {
    StringBuilder text = new StringBuilder();
    text.append(passed() ? "PASSED" : "FAILED").append(": torture of ").append(options.target()).append(", key '")
        .append(options.key()).append("', ").append(options.workers()).append(" workers, ")
        .append(Duration.ofNanos(endNanos - startNanos).toSeconds()).append(" s, ttl ")
        .append(options.ttl().toMillis()).append(" ms, faults ").append(options.faults()).append('\n');
    text.append("holds: ").append(holds.size()).append(" (per worker ").append(acquisitionsPerWorker).append(")\n");
    text.append("faults injected: ").append(faults.size()).append('\n');
    text.append("register: ").append(acceptedWrites).append(" writes accepted, ").append(rejectedWrites)
        .append(" rejected as stale, ").append(lostUpdates).append(" lost updates\n");
    text.append("fencing tokens strictly increased: ").append(tokensIncreased ? "yes" : "NO").append('\n');
    text.append("stale holds overlapped by newer ones: ").append(explainedOverlaps).append(" explained (lost or")
        .append(" paused holder, stale write rejected); unexplained overlaps: ").append(violations.stream().filter(v -> v.what().startsWith("overlap")).count())
        .append('\n');
    text.append("longest time without a holder after a fault healed: ").append(longestGapAfterFault.toMillis())
        .append(" ms\n");
    text.append("acquire timeouts: ").append(timeouts).append(", failed calls: ").append(errors)
        .append(", workers that exited by themselves: ").append(unexpectedExits.size()).append('\n');
    unexpectedExits.forEach(exit -> text.append("  ").append(exit).append('\n'));
    for (Violation violation : violations.subList(0, Math.min(violations.size(), VIOLATIONS_SHOWN))) {
      text.append("VIOLATION at +").append(Duration.ofNanos(violation.atNanos() - startNanos).toMillis())
          .append(" ms: ").append(violation.what()).append(' ').append(violation.workers()).append('\n');
    }
    if (violations.size() > VIOLATIONS_SHOWN) {
      text.append("... and ").append(violations.size() - VIOLATIONS_SHOWN).append(" more violations in result.json\n");
    }
    return text.toString();
  }
}
