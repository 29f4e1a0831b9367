package dev.baton;

/** The store could not be reached, or did not answer in time. */
public class BackendUnavailableException extends LockException {
  private static final long serialVersionUID = 1L;

  public BackendUnavailableException(String message) {
    super(message);
  }

  public BackendUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }
}
