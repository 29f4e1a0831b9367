package dev.baton;

/** The lock was not acquired within its wait time. Nothing was left behind at the store. */
public class LockTimeoutException extends LockException {
  private static final long serialVersionUID = 1L;

  public LockTimeoutException(String message) {
    super(message);
  }
}
