package dev.baton.virtualthreads;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Virtual threads, reached by reflection: these tests compile for Java 17, as the rest of the build does, and run on a
 * JDK 21 or later ({@link VirtualThreadJdk} skips them elsewhere).
 */
final class VirtualThreads {
  private VirtualThreads() {}

  /** An executor that runs each task on a new virtual thread. */
  static ExecutorService perTaskExecutor() {
    return (ExecutorService) call(Executors.class, "newVirtualThreadPerTaskExecutor", null);
  }

  /** Starts {@code task} on a new virtual thread, unnamed as the JDK makes them. */
  static Thread startUnnamed(Runnable task) {
    return start(call(Thread.class, "ofVirtual", null), task);
  }

  /** Starts {@code task} on a new virtual thread named {@code name}. */
  static Thread startNamed(String name, Runnable task) {
    Object builder = call(Thread.class, "ofVirtual", null);
    return start(call(builderType(), "name", builder, String.class, name), task);
  }

  /** Whether {@code thread} is a virtual thread. */
  static boolean isVirtual(Thread thread) {
    return (Boolean) call(Thread.class, "isVirtual", thread);
  }

  private static Thread start(Object builder, Runnable task) {
    return (Thread) call(builderType(), "start", builder, Runnable.class, task);
  }

  private static Class<?> builderType() {
    try {
      return Class.forName("java.lang.Thread$Builder");
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException("Thread.Builder needs Java 21 or later; this is " + Runtime.version(), e);
    }
  }

  private static Object call(Class<?> type, String method, Object target) {
    try {
      return type.getMethod(method).invoke(target);
    } catch (ReflectiveOperationException e) {
      throw unreachable(type, method, e);
    }
  }

  private static Object call(Class<?> type, String method, Object target, Class<?> parameterType, Object argument) {
    try {
      return type.getMethod(method, parameterType).invoke(target, argument);
    } catch (ReflectiveOperationException e) {
      throw unreachable(type, method, e);
    }
  }

  private static RuntimeException unreachable(Class<?> type, String method, ReflectiveOperationException e) {
    if (e instanceof InvocationTargetException thrown && thrown.getCause() instanceof RuntimeException cause) {
      return cause;
    }
    return new IllegalStateException(type.getName() + "." + method + " needs Java 21 or later; this is "
        + Runtime.version(), e);
  }
}
