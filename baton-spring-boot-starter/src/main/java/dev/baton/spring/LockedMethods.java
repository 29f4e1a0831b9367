package dev.baton.spring;

import java.lang.reflect.Method;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.aop.support.AopUtils;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.util.ReflectionUtils;
import org.springframework.util.StringValueResolver;

/** The {@link Locked} methods met so far, each read once. */
final class LockedMethods {
  private final Map<Method, LockedMethod> methods = new ConcurrentHashMap<>();
  private final StringValueResolver resolver;

  LockedMethods(StringValueResolver resolver) {
    this.resolver = resolver;
  }

  /**
   * Reads every {@link Locked} method of {@code targetClass}, so that a bad annotation fails when the bean is
   * created rather than when it is first called.
   *
   * @return whether the class has any
   */
  boolean inspect(Class<?> targetClass) {
    boolean[] found = new boolean[1];
    ReflectionUtils.doWithMethods(targetClass, method -> {
      found[0] = true;
      get(method, targetClass);
    }, method -> !method.isBridge() && AnnotatedElementUtils.hasAnnotation(method, Locked.class));
    return found[0];
  }

  /** The annotated method {@code method} is when called on an instance of {@code targetClass}. */
  LockedMethod get(Method method, Class<?> targetClass) {
    Method specific = AopUtils.getMostSpecificMethod(method, targetClass);
    return methods.computeIfAbsent(specific, m -> LockedMethod.of(m, targetClass,
        AnnotatedElementUtils.findMergedAnnotation(m, Locked.class), resolver));
  }
}
