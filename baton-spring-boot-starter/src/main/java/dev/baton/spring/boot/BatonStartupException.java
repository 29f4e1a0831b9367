package dev.baton.spring.boot;

/**
 * The starter could not give the application a lock client: no store is configured, a {@code baton.*} property is
 * wrong, or the store refused or could not be reached. Carries what {@link BatonStartupFailureAnalyzer} reports: the
 * property at fault, what went wrong (without secrets) and what to do.
 */
public class BatonStartupException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final String property;
  private final String action;

  /**
   * @param property the property at fault, such as {@code baton.backend}
   * @param problem what went wrong, naming values without their secrets
   * @param action what to do about it
   * @param cause the failure underneath, or null
   */
  public BatonStartupException(String property, String problem, String action, Throwable cause) {
    super("Property " + property + ": " + problem, cause);
    this.property = property;
    this.action = action;
  }

  /** The property at fault, such as {@code baton.backend}. */
  public String property() {
    return property;
  }

  /** What to do about it. */
  public String action() {
    return action;
  }
}
