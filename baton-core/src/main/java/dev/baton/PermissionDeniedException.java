package dev.baton;

/**
 * The store refused the client: its credentials were wrong or missing, or its user may not do what a lock needs.
 * Not an outage: trying again changes nothing, so Baton fails at once instead of retrying for the wait time. The
 * message says what was refused and what to check.
 */
public class PermissionDeniedException extends LockException {
  private static final long serialVersionUID = 1L;

  public PermissionDeniedException(String message) {
    super(message);
  }

  public PermissionDeniedException(String message, Throwable cause) {
    super(message, cause);
  }
}
