package dev.baton.spring;

import java.lang.reflect.Method;
import org.springframework.core.annotation.AnnotatedElementUtils;

/**
 * Whether a method is a scheduled job. By the annotations' names, so that an application without Spring's
 * scheduling annotations on its class path needs none; directly or through meta-annotations, as Spring's own
 * scheduling finds them.
 */
final class ScheduledMethods {
  private static final String SCHEDULED = "org.springframework.scheduling.annotation.Scheduled";
  private static final String SCHEDULES = "org.springframework.scheduling.annotation.Schedules";

  private ScheduledMethods() {}

  static boolean isScheduled(Method method) {
    return AnnotatedElementUtils.isAnnotated(method, SCHEDULED) || AnnotatedElementUtils.isAnnotated(method, SCHEDULES);
  }
}
