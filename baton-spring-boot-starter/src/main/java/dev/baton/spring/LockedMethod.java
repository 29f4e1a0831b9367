package dev.baton.spring;

import dev.baton.LockOptions;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CompletionStage;
import java.util.stream.Collectors;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.util.ReflectionUtils;
import org.springframework.util.StringValueResolver;

/** One {@link Locked} method, read and checked once: its key expression, durations, fallback and mode. */
final class LockedMethod {
  private final String where;
  private final KeyExpression key;
  private final Duration wait;
  private final Duration lease;
  private final Duration holdAtLeast;
  private final Method fallback;
  private final boolean async;
  private final Locked.Mode mode;

  private LockedMethod(String where, KeyExpression key, Duration wait, Duration lease, Duration holdAtLeast,
      Method fallback, boolean async, Locked.Mode mode) {
    this.where = where;
    this.key = key;
    this.wait = wait;
    this.lease = lease;
    this.holdAtLeast = holdAtLeast;
    this.fallback = fallback;
    this.async = async;
    this.mode = mode;
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
    Duration lease = duration("leaseTime", locked.leaseTime(), where, resolver);
    Duration holdAtLeast = duration("holdAtLeast", locked.holdAtLeast(), where, resolver);
    checkOptions(wait, lease, where);
    Method fallback = locked.fallback().isEmpty() ? null : fallback(method, targetClass, locked.fallback(), where);
    return new LockedMethod(where, key, wait, lease, holdAtLeast, fallback,
        CompletionStage.class.isAssignableFrom(method.getReturnType()), locked.mode());
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
    return lease == null ? options : options.withLeaseTime(lease);
  }

  /** How long the lock is kept at least, from when it was granted; zero if released as soon as the method returns. */
  Duration holdAtLeast() {
    return holdAtLeast == null ? Duration.ZERO : holdAtLeast;
  }

  /** Whether the method returns a {@link CompletionStage}, which holds the lock until it completes. */
  boolean isAsync() {
    return async;
  }

  boolean hasFallback() {
    return fallback != null;
  }

  Object callFallback(Object target, Object[] args) throws Throwable {
    try {
      return fallback.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
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

  private static void checkOptions(Duration wait, Duration lease, String where) {
    try {
      LockOptions.builder().waitTime(wait).leaseTime(lease).build();
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
