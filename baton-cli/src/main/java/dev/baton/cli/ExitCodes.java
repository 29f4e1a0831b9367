package dev.baton.cli;

/** The exit statuses of {@code baton}, after sysexits.h, so that scripts can tell failures apart. */
final class ExitCodes {
  static final int OK = 0;
  /** Bad usage: an unknown option, a malformed duration or URI. */
  static final int USAGE = 64;
  /** The backend could not be reached. */
  static final int UNAVAILABLE = 69;
  /** Something failed that is not the user's doing. */
  static final int SOFTWARE = 70;
  /** The lock was lost while the command ran. */
  static final int LOCK_LOST = 74;
  /** The store refused the credentials, or the user may not do what a lock needs: retrying will not help. */
  static final int NO_PERMISSION = 77;
  /** The lock was not acquired within the wait time: try again later. */
  static final int NOT_ACQUIRED = 75;
  /** The command to run exists but could not be run, as shells say. */
  static final int CANNOT_RUN = 126;
  /** The command to run was not found, as shells say. */
  static final int NOT_FOUND = 127;

  private ExitCodes() {}
}
