package dev.baton;

/** The root of Baton's exceptions. Unchecked; every message names the key and what to do. */
public class LockException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public LockException(String message) {
    super(message);
  }

  public LockException(String message, Throwable cause) {
    super(message, cause);
  }
}
