package dev.baton.spring;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Runs the method while holding the Baton lock {@link #key()}, across every process that shares the store:
 *
 * <pre>{@code
 * @Locked(key = "'order:' + #orderId", waitTime = "5s", holdTimeout = "30s")
 * public void ship(long orderId) { ... }
 * }</pre>
 *
 * <p>If the lock is not acquired within {@link #waitTime()}, the method does not run; {@link #whenTaken()} says what
 * the call does instead. By default a method with a {@link #fallback()} returns what the fallback returns, a
 * {@code @Scheduled} method skips the run quietly (as ShedLock does), and any other method throws
 * {@link dev.baton.LockTimeoutException}:
 *
 * <pre>{@code
 * @Scheduled(cron = "0 0 2 * * *")
 * @Locked(key = "'nightly-report'", waitTime = "0", holdAtLeast = "1m")
 * public void nightlyReport() { ... }
 * }</pre>
 *
 * <p>A method that returns a {@link java.util.concurrent.CompletionStage} (such as a {@code CompletableFuture})
 * holds the lock until the stage completes, and reports a timeout as a stage completed with the exception. A nested
 * {@code @Locked} call for a key its thread already holds runs without asking again; a nested {@link Mode#WRITE}
 * call for a key its thread holds only for reading throws {@link IllegalMonitorStateException}, as a read lock cannot be upgraded.
 *
 * <p>The attributes are {@code waitTime} and {@code holdTimeout}, as in {@link dev.baton.LockOptions}: an annotation
 * cannot have an attribute named {@code wait}.
 *
 * <p>The method must be one Spring can intercept: public or protected, not final or static, called through
 * the bean (a call from the bean to itself is not intercepted). Keys name parameters, so compile with
 * {@code -parameters} (Spring Boot's build does), or use {@code #p0}, {@code #p1}, ...
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface Locked {

  /**
   * The lock's key: a SpEL expression over the method's arguments ({@code #orderId}, or {@code #p0} for the
   * first) and beans ({@code @beanName}), e.g. {@code "'order:' + #orderId"}. A plain name is written in quotes:
   * {@code "'nightly-report'"}.
   */
  String key();

  /**
   * How long to wait for the lock: {@code 500ms}, {@code 5s}, {@code 1m}, ISO-8601 {@code PT5S}, or a
   * {@code ${property}}; {@code 0} tries once. Empty: the client's default ({@code baton.wait-time}).
   */
  String waitTime() default "";

  /**
   * The hold timeout: the lock frees itself this long after it was granted, even if the method still runs.
   * Same forms as {@link #waitTime()}. Empty: the client's default ({@code baton.hold-timeout}; unset renews while held).
   */
  String holdTimeout() default "";

  /**
   * Keeps the lock at least this long after it was granted, even if the method returns sooner, so that another
   * instance whose schedule fires a moment later does not run the same tick again. Same forms as
   * {@link #waitTime()}; it should be shorter than the time between ticks. Empty: release when the method returns.
   */
  String holdAtLeast() default "";

  /**
   * The name of a method of the same bean, with the same parameters and return type, to call instead when
   * the lock is not acquired in time; it implies {@link WhenTaken#FALLBACK}. Empty: as {@link #whenTaken()} says.
   */
  String fallback() default "";

  /**
   * What the call does when the lock is not acquired within {@link #waitTime()}: {@link WhenTaken#SKIP},
   * {@link WhenTaken#THROW} or {@link WhenTaken#FALLBACK}. {@link WhenTaken#DEFAULT}: fall back if {@link #fallback()}
   * is given, else skip if the method is {@code @Scheduled}, else throw.
   */
  WhenTaken whenTaken() default WhenTaken.DEFAULT;

  /**
   * Which side of the key's {@link dev.baton.DistributedReadWriteLock} the method runs under: {@link Mode#WRITE}
   * (the default), the key's exclusive lock, or {@link Mode#READ}, beside other readers of the key.
   */
  Mode mode() default Mode.WRITE;

  /** The sides of a key's read-write lock. */
  enum Mode {
    /** Alone: the key's exclusive lock, as {@link dev.baton.LockClient#lock(String)} takes it. */
    WRITE,
    /** Beside other readers, never beside a writer. */
    READ
  }
}
