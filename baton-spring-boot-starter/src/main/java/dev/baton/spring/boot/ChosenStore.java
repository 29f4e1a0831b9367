package dev.baton.spring.boot;

/**
 * The store the starter's client was connected to and why, told by the bean that connected it, for the health
 * details; a client the application declares itself leaves it at {@link StoreChoice#OWN_CLIENT}.
 */
final class ChosenStore {
  private volatile StoreChoice choice = StoreChoice.OWN_CLIENT;

  /** Records the starter's choice. */
  void chose(StoreChoice choice) {
    this.choice = choice;
  }

  StoreChoice get() {
    return choice;
  }
}
