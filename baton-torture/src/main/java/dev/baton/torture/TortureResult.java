package dev.baton.torture;

import dev.baton.internal.Redaction;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * What a torture found. {@link #passed()} is false on any violation (holds at once beyond what the primitive allows
 * that neither a lost lease nor a pause explains, a lost update in the register, a fencing token that did not grow)
 * and on any flag (the run never showed holders sharing what they may share).
 *
 * @param options how it ran
 * @param startNanos when it started ({@link System#nanoTime()})
 * @param endNanos when its workers had stopped
 * @param holds every hold (a lock's, a reader's, a writer's, a permit's, a leader's term) of every worker, in
 *     order of grant
 * @param faults every injected fault
 * @param violations what broke mutual exclusion, the semaphore's bound or fencing
 * @param explainedOverlaps stale holds that newer ones overlapped beyond what the primitive allows, whose holder
 *     had been told it lost the hold (not a leader: its term ends when told) or was paused past its ttl, and whose
 *     accesses the register fenced off (or served before the newer holder read)
 * @param mostSharedAtOnce the most readers (read-write lock) or permit holders (semaphore) that held at once, not
 *     counting holders paused past their ttl or told they lost the hold; 0 for the others, which share nothing
 * @param flags what the run did not show though the primitive allows it: readers that never held together, a
 *     semaphore never held by as many as its permits, a read-write lock no writer held
 * @param acceptedWrites writes the register took
 * @param rejectedWrites reads and writes the register refused for a stale token
 * @param lostUpdates accepted writes that overwrote a write their holder never read
 * @param tokensIncreased whether tokens grew: with every grant, a writer's (a lock's, a leader's) above every hold
 *     granted before it, none shared by two holds, and the register's accepted ones in order
 * @param longestGapAfterFault the longest time without a holder after a fault healed
 * @param timeouts acquisitions that gave up after the wait time
 * @param errors calls that failed (store unreachable and the like)
 * @param acquisitionsPerWorker holds per worker
 * @param unexpectedExits workers that exited without being killed (a harness or client failure), with their
 *     last output; each was replaced
 */
public record TortureResult(TortureOptions options, long startNanos, long endNanos, List<Hold> holds,
    List<Torture.FaultEvent> faults, List<Violation> violations, int explainedOverlaps, int mostSharedAtOnce,
    List<String> flags, long acceptedWrites, long rejectedWrites, long lostUpdates, boolean tokensIncreased,
    Duration longestGapAfterFault, long timeouts, long errors, Map<String, Integer> acquisitionsPerWorker,
    List<String> unexpectedExits) {

  private static final int VIOLATIONS_SHOWN = 20;

  /** Whether nothing broke, and the run showed the sharing the primitive allows. */
  public boolean passed() {
    return violations.isEmpty() && flags.isEmpty();
  }

  /**
   * One hold by one worker, from the return of its acquire (a leader: its election) to the start of its release
   * (a leader: its revocation or resignation). {@code shared} for a reader's or a permit's. {@code paused} says
   * whether a pause past the ttl hit the worker between its call to acquire and its release: the store may have
   * granted the hold before the pause and let it expire during it. {@code lost}: told it lost the hold before it
   * ended. {@code readNanos} is when the register served its first read ({@link Long#MAX_VALUE} if none),
   * {@code lastAccessNanos} its last read or write ({@link Long#MIN_VALUE} if none).
   */
  public record Hold(String worker, boolean shared, long token, long askNanos, long startNanos, long endNanos,
      boolean lost, boolean paused, long readNanos, Write write, long lastAccessNanos) {}

  /** What became of a hold's writes: one at least accepted, none and some access refused as stale, or none made. */
  public enum Write { ACCEPTED, REJECTED, NONE }

  /** Something that broke what the primitive promises. */
  public record Violation(String what, long atNanos, List<String> workers) {}

  /** The text summary. */
  public String summary() {
    StringBuilder text = new StringBuilder();
    text.append(violations.isEmpty() ? flags.isEmpty() ? "PASSED" : "FLAGGED" : "FAILED").append(": torture of ")
        .append(Redaction.uri(options.target())).append(", ").append(subject()).append(", ")
        .append(options.workers()).append(" workers, ").append(Duration.ofNanos(endNanos - startNanos).toSeconds()).append(" s, ttl ")
        .append(options.ttl().toMillis()).append(" ms, faults ").append(options.faults()).append('\n');
    text.append(options.primitive() == Primitive.LEADERSHIP ? "terms: " : "holds: ").append(holds.size());
    if (options.primitive() == Primitive.READ_WRITE) {
      long readers = holds.stream().filter(Hold::shared).count();
      text.append(" (").append(readers).append(" by readers, ").append(holds.size() - readers).append(" by writers)");
    }
    text.append(" (per worker ").append(acquisitionsPerWorker).append(")\n");
    text.append("faults injected: ").append(faults.size()).append('\n');
    if (options.primitive() == Primitive.SEMAPHORE) {
      text.append("register: not used (permit holders share it; the bound is checked on their holds)\n");
    } else if (options.primitive() == Primitive.MULTI_LOCK) {
      text.append("register: not used (each key's holds are checked for overlaps and tokens on their own)\n");
    } else {
      text.append("register: ").append(acceptedWrites).append(" writes accepted, ").append(rejectedWrites)
          .append(" reads or writes rejected as stale, ").append(lostUpdates).append(" lost updates\n");
    }
    text.append("fencing tokens strictly increased: ").append(tokensIncreased ? "yes" : "NO").append('\n');
    if (options.primitive() == Primitive.READ_WRITE) {
      text.append("most readers at once: ").append(mostSharedAtOnce).append('\n');
    } else if (options.primitive() == Primitive.SEMAPHORE) {
      text.append("most permit holders at once: ").append(mostSharedAtOnce).append(" of ").append(options.permits())
          .append(" permits\n");
    }
    text.append("stale holds overlapped by newer ones: ").append(explainedOverlaps).append(" explained (")
        .append(explanation()).append("); unexplained overlaps: ")
        .append(violations.stream().filter(v -> v.what().startsWith("overlap")).count()).append('\n');
    text.append("longest time without a holder after a fault healed: ").append(longestGapAfterFault.toMillis())
        .append(" ms\n");
    text.append("acquire timeouts: ").append(timeouts).append(", failed calls: ").append(errors)
        .append(", workers that exited by themselves: ").append(unexpectedExits.size()).append('\n');
    unexpectedExits.forEach(exit -> text.append("  ").append(exit).append('\n'));
    flags.forEach(flag -> text.append("FLAG: ").append(flag).append('\n'));
    for (Violation violation : violations.subList(0, Math.min(violations.size(), VIOLATIONS_SHOWN))) {
      text.append("VIOLATION at +").append(Duration.ofNanos(violation.atNanos() - startNanos).toMillis())
          .append(" ms: ").append(violation.what()).append(' ').append(violation.workers()).append('\n');
    }
    if (violations.size() > VIOLATIONS_SHOWN) {
      text.append("... and ").append(violations.size() - VIOLATIONS_SHOWN).append(" more violations in result.json\n");
    }
    return text.toString();
  }

  private String subject() {
    return switch (options.primitive()) {
      case LOCK -> "lock '" + options.key() + "'";
      case LINGER -> "lingering lock '" + options.key() + "'";
      case READ_WRITE -> "read-write lock '" + options.key() + "'";
      case SEMAPHORE -> "semaphore '" + options.key() + "' of " + options.permits() + " permits";
      case LEADERSHIP -> "leadership '" + options.key() + "'";
      case MULTI_LOCK -> "multi-locks over " + Primitive.MULTI_KEYS + " keys '" + options.key() + "/0' to '"
          + options.key() + "/" + (Primitive.MULTI_KEYS - 1) + "'";
    };
  }

  private String explanation() {
    return switch (options.primitive()) {
      case SEMAPHORE -> "lost or paused permit holders beyond the permits";
      case LEADERSHIP -> "paused leader, stale write fenced off";
      case LOCK, READ_WRITE, LINGER -> "lost or paused holder, stale access fenced off";
      case MULTI_LOCK -> "lost or paused holder of the key";
    };
  }
}
