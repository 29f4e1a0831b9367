package dev.baton.cli;

/** The command of {@code baton exec} could not be started; the message says why, as shells do. */
final class CannotRunException extends Exception {
  private static final long serialVersionUID = 1L;

  private final int exitStatus;

  CannotRunException(String message, int exitStatus) {
    super(message);
    this.exitStatus = exitStatus;
  }

  /** 127 if the command was not found, 126 if it could not be run, as shells report them. */
  int exitStatus() {
    return exitStatus;
  }
}
