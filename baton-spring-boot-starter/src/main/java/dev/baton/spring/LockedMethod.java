package dev.baton.spring;

import dev.baton.LockOptions;
import java.lang.reflect.Array;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.time.Duration;
import java.util.Arrays;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.stream.Collectors;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.util.ReflectionUtils;
import org.springframework.util.StringValueResolver;

/**
 * One {@link Locked} method, read and checked once: its key expression, durations, fallback, mode and what a call
 * does when the lock is taken.
 */
final class LockedMethod {
  private final String where;
  private final KeyExpression key;
  private final Duration wait;
  private final Duration holdTimeout;
  private final Duration holdAtLeast;
  private final Method fallback;
  private final boolean async;
  private final Locked.Mode mode;
  private final WhenTaken whenTaken;
  private final Object skipped;

  private LockedMethod(String where, KeyExpression key, Duration wait, Duration holdTimeout, Duration holdAtLeast,
      Method fallback, boolean async, Locked.Mode mode, WhenTaken whenTaken, Object skipped) {
    this.where = where;
    this.key = key;
    this.wait = wait;
    this.holdTimeout = holdTimeout;
    this.holdAtLeast = holdAtLeast;
    this.fallback = fallback;
    this.async = async;
    this.mode = mode;
    this.whenTaken = whenTaken;
    this.skipped = skipped;
  }

  /**
   * Reads the annotation of {@code method}.
   *
   * @param resolver resolves {@code ${...}} placeholders in durations, or null
   * @throws IllegalArgumentException naming the method and the attribute, if the method cannot be intercepted or
   *     an attribute is not valid
   */
  static LockedMethod of(Method method, Class<?> targetClass, Locked locked, StringValueResolver resolver) {
    String where = targetClass.getSimpleName() + "." + method.getName() + Arrays.stream(method.getParameterTypes())
        .map(Class::getSimpleName).collect(Collectors.joining(", ", "(", ")"));
    int modifiers = method.getModifiers();
    if (Modifier.isPrivate(modifiers) || Modifier.isFinal(modifiers) || Modifier.isStatic(modifiers)) {
      throw new IllegalArgumentException("@Locked on " + where + " would be ignored: Spring cannot intercept a private,"
          + " final or static method. Make it public and not final.");
    }
    KeyExpression key = KeyExpression.parse(method, locked.key(), where);
    Duration wait = duration("waitTime", locked.waitTime(), where, resolver);
    Duration holdTimeout = duration("holdTimeout", locked.holdTimeout(), where, resolver);
    Duration holdAtLeast = duration("holdAtLeast", locked.holdAtLeast(), where, resolver);
    checkOptions(wait, holdTimeout, where);
    Method fallback = locked.fallback().isEmpty() ? null : fallback(method, targetClass, locked.fallback(), where);
    WhenTaken whenTaken = whenTaken(method, locked, where);
    boolean async = CompletionStage.class.isAssignableFrom(method.getReturnType());
    return new LockedMethod(where, key, wait, holdTimeout, holdAtLeast, fallback, async, locked.mode(), whenTaken,
        skippedValue(method.getReturnType()));
  }

  String where() {
    return where;
  }

  Locked.Mode mode() {
    return mode;
  }

  String key(Object[] args, BeanFactory beanFactory) {
    return key.evaluate(args, beanFactory);
  }

  /** The client's default options with this method's wait and hold timeout. */
  LockOptions options(LockOptions defaults) {
    LockOptions options = wait == null ? defaults : defaults.withWaitTime(wait);
    return holdTimeout == null ? options : options.withHoldTimeout(holdTimeout);
  }

  /** How long the lock is kept at least, from when it was granted; zero if released as soon as the method returns. */
  Duration holdAtLeast() {
    return holdAtLeast == null ? Duration.ZERO : holdAtLeast;
  }

  /** Whether the method returns a {@link CompletionStage}, which holds the lock until it completes. */
  boolean isAsync() {
    return async;
  }

  /** What the method does when its lock is not acquired in time: never {@link WhenTaken#DEFAULT}. */
  WhenTaken whenTaken() {
    return whenTaken;
  }

  /** What a skipped call returns: null, the primitive's zero, an empty Optional or a completed stage. */
  Object skipped() {
    // A new stage each time: a caller may complete or obtrude the one it was given.
    return async ? CompletableFuture.completedFuture(null) : skipped;
  }

  Object callFallback(Object target, Object[] args) throws Throwable {
    try {
      return fallback.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }

  /** The annotation's choice, with {@link WhenTaken#DEFAULT} made concrete for this method. */
  private static WhenTaken whenTaken(Method method, Locked locked, String where) {
    WhenTaken chosen = locked.whenTaken();
    boolean hasFallback = !locked.fallback().isEmpty();
    if (chosen == WhenTaken.FALLBACK && !hasFallback) {
      throw new IllegalArgumentException("@Locked(whenTaken = FALLBACK) on " + where + " names no fallback method;"
          + " add fallback = \"methodName\", or choose SKIP or THROW.");
    }
    if (hasFallback && (chosen == WhenTaken.SKIP || chosen == WhenTaken.THROW)) {
      throw new IllegalArgumentException("@Locked(whenTaken = " + chosen + ", fallback = \"" + locked.fallback()
          + "\") on " + where + " would never call the fallback; remove fallback, or whenTaken.");
    }
    if (chosen != WhenTaken.DEFAULT) {
      return chosen;
    }
    if (hasFallback) {
      return WhenTaken.FALLBACK;
    }
    return ScheduledMethods.isScheduled(method) ? WhenTaken.SKIP : WhenTaken.THROW;
  }

  /** What a skipped call of a method that returns {@code returnType} returns, but for a stage: made per call. */
  private static Object skippedValue(Class<?> returnType) {
    if (returnType == Optional.class) {
      return Optional.empty();
    }
    if (returnType.isPrimitive() && returnType != void.class) {
      return Array.get(Array.newInstance(returnType, 1), 0); // the primitive's zero, boxed
    }
    return null;
  }

  private static Duration duration(String attribute, String value, String where, StringValueResolver resolver) {
    String resolved = resolver == null ? value : resolver.resolveStringValue(value);
    if (resolved == null || resolved.isBlank()) {
      return null;
    }
    Duration duration;
    try {
      duration = DurationStyle.detectAndParse(resolved.trim());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("@Locked(" + attribute + " = \"" + value + "\") on " + where + " is not a duration"
          + (resolved.equals(value) ? "" : " ('" + resolved + "')") + "; write 500ms, 5s, 1m or PT5S.", e);
    }
    if (duration.isNegative()) {
      throw new IllegalArgumentException("@Locked(" + attribute + " = \"" + value + "\") on " + where
          + " is negative; use 0 to try once.");
    }
    return duration;
  }

  private static void checkOptions(Duration wait, Duration holdTimeout, String where) {
    try {
      LockOptions.builder().waitTime(wait).holdTimeout(holdTimeout).build();
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("@Locked on " + where + ": " + e.getMessage(), e);
    }
  }

  private static Method fallback(Method method, Class<?> targetClass, String name, String where) {
    Method fallback = ReflectionUtils.findMethod(targetClass, name, method.getParameterTypes());
    if (fallback == null || !method.getReturnType().isAssignableFrom(fallback.getReturnType())) {
      throw new IllegalArgumentException("@Locked(fallback = \"" + name + "\") on " + where + " names no method " + name
          + Arrays.stream(method.getParameterTypes()).map(Class::getSimpleName).collect(Collectors.joining(", ", "(", ")"))
          + " returning " + method.getReturnType().getSimpleName() + " in " + targetClass.getSimpleName()
          + "; declare one with the same parameters and return type.");
    }
    ReflectionUtils.makeAccessible(fallback);
    return fallback;
  }
}
