package dev.baton.cli;

import dev.baton.connect.BackendUri;
import dev.baton.internal.Redaction;
import dev.baton.postgres.PostgresSessions;
import dev.baton.torture.Fault;
import dev.baton.torture.ServerFaults;
import java.util.Set;

/**
 * What {@code baton torture} may do to a store given by address, which it did not start and so never restarts nor
 * fails over: on PostgreSQL, {@code connection-kill} ends the sessions of Baton's clients on the database
 * ({@link PostgresSessions}), and no other application's, logging in as the workers do.
 */
final class AddressFaults implements ServerFaults {
  private final String address;
  private final Credentials credentials;
  private int faults;
  private int ended;

  private AddressFaults(String address, Credentials credentials) {
    this.address = address;
    this.credentials = credentials;
  }

  /**
   * The faults {@code chosen} needs on the store at {@code address}, or null when it needs none or the address is not
   * PostgreSQL's (the torture then refuses the store's faults itself).
   *
   * @throws IllegalArgumentException if a PostgreSQL address is asked for a fault other than connection-kill, or the
   *     credentials in the environment are incomplete
   */
  static AddressFaults of(String address, Set<Fault> chosen) {
    if (chosen.stream().noneMatch(Fault::needsServer)
        || BackendUri.parse(address).backend() != BackendUri.Backend.POSTGRES) {
      return null;
    }
    for (Fault fault : chosen) {
      if (fault.needsServer() && fault != Fault.CONNECTION_KILL) {
        throw new IllegalArgumentException("The fault " + fault.option() + " needs a store the torture started"
            + " itself; with a PostgreSQL address use pause, kill and connection-kill.");
      }
    }
    return new AddressFaults(address, Credentials.from(System.getenv()));
  }

  @Override
  public void killConnections() {
    ended += credentials.isPresent()
        ? PostgresSessions.terminate(address, credentials.user(), credentials.password())
        : PostgresSessions.terminate(address);
    faults++;
  }

  /** What the faults did, for the summary: how many sessions of Baton's clients they ended. */
  String outcome() {
    return Fault.CONNECTION_KILL.option() + ": " + ended + " sessions of Baton's clients ended in " + faults
        + " faults\n";
  }

  @Override
  public String toString() {
    return Redaction.uri(address);
  }
}
