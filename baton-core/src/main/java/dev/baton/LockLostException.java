package dev.baton;

/** A lock was lost while it was held, so the work done under it was not protected. */
public class LockLostException extends LockException {
  private static final long serialVersionUID = 1L;

  public LockLostException(String message) {
    super(message);
  }
}
