package dev.baton.spring.boot;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Turns a {@link BatonStartupException} into Spring Boot's "APPLICATION FAILED TO START" report. */
public class BatonStartupFailureAnalyzer extends AbstractFailureAnalyzer<BatonStartupException> {
  @Override
  protected FailureAnalysis analyze(Throwable rootFailure, BatonStartupException cause) {
    return new FailureAnalysis(cause.getMessage(), cause.action(), cause);
  }
}
