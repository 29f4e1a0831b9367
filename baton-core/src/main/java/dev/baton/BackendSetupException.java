package dev.baton;

/**
 * The store answered, but is not set up for Baton: what a lock needs there is missing or of another shape (on
 * PostgreSQL a missing schema, database or lock table, or a table whose columns are not Baton's; on Redis a lock's key
 * that holds another kind of data). Not an outage: trying again changes nothing until an administrator sets the store
 * up, so Baton fails at once instead of retrying for the wait time. The message names what is missing and what to run
 * or change.
 */
public class BackendSetupException extends LockException {
  private static final long serialVersionUID = 1L;

  public BackendSetupException(String message) {
    super(message);
  }

  public BackendSetupException(String message, Throwable cause) {
    super(message, cause);
  }
}
