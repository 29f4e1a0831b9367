package dev.baton.virtualthreads;

import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Runs the tests of a class only on a JDK with virtual threads (21 or later), and skips them elsewhere before any
 * server starts, saying how to run them.
 */
final class VirtualThreadJdk implements ExecutionCondition {
  static final int FIRST_FEATURE_RELEASE = 21;

  @Override
  public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
    Runtime.Version version = Runtime.version();
    if (version.feature() >= FIRST_FEATURE_RELEASE) {
      return ConditionEvaluationResult.enabled("Java " + version + " has virtual threads");
    }
    return ConditionEvaluationResult.disabled("Skipped: virtual threads need Java " + FIRST_FEATURE_RELEASE
        + " or later, and these tests run on Java " + version + ". Set BATON_VIRTUAL_THREAD_JDK to the home of a JDK "
        + FIRST_FEATURE_RELEASE + "+ (bin/test does when it finds one in /usr/lib/jvm), or run Maven on one.");
  }
}
