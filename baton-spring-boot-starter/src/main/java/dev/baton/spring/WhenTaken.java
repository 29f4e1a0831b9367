package dev.baton.spring;

/**
 * What a {@link Locked} method does when its lock is not acquired within {@link Locked#waitTime()}: the method
 * itself never runs then.
 */
public enum WhenTaken {
  /**
   * {@link #FALLBACK} if {@link Locked#fallback()} names a method; otherwise {@link #SKIP} for a method that is
   * also {@code @Scheduled} (or {@code @Schedules}), as ShedLock does, and {@link #THROW} for any other.
   */
  DEFAULT,
  /**
   * Returns at once without running: {@code null}, the primitive's zero, an empty {@link java.util.Optional} or a
   * {@link java.util.concurrent.CompletionStage} completed with {@code null}, as the return type asks. Logs one
   * DEBUG line and counts {@code baton.lock.skipped} when Micrometer is present.
   */
  SKIP,
  /**
   * Throws {@link dev.baton.LockTimeoutException}, or returns a stage completed with it for a method that returns
   * a {@link java.util.concurrent.CompletionStage}.
   */
  THROW,
  /** Returns what the {@link Locked#fallback()} method returns, which must then be given. */
  FALLBACK
}
