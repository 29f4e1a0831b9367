package dev.baton.spring.boot;

/**
 * A store the application already configures for itself, as the starter locks on it when {@code baton.backend} is
 * unset: its URI without credentials, the credentials beside it, and what it was read from.
 *
 * @param uri the backend URI, with no credentials in it
 * @param user the user to log in as, or null
 * @param password the password, or null for none
 * @param property the setting a person changes to fix it, as the failure report names it
 * @param chosenBy what chose it, as the startup log and the health details say it
 */
record ApplicationStore(String uri, String user, String password, String property, String chosenBy) {

  /** The choice this store stands for. */
  StoreChoice choice() {
    return StoreChoice.of(uri, chosenBy + ", as baton.backend is unset");
  }

  @Override
  public String toString() {
    return "ApplicationStore[" + uri + ", chosen by " + chosenBy + "]";
  }
}
