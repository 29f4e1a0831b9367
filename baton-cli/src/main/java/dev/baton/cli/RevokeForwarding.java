package dev.baton.cli;

import dev.baton.cli.SignalForwarding.Forwarded;

/**
 * Passes requests to release the lock ({@code baton revoke}, with {@code exec --on-revoke term}) on to the command as
 * SIGTERM. exec hears requests from before the command starts, so that one sent as soon as the command runs is not
 * lost while exec would still be setting up to hear it; a request heard before the command started reaches it as soon
 * as it has.
 */
final class RevokeForwarding {
  private ChildProcess child;
  private boolean asked;

  /** Someone asked the holder to release: the command gets SIGTERM, now or once it runs. */
  synchronized void asked() {
    if (child == null) {
      asked = true;
    } else {
      child.signal(Forwarded.TERM);
    }
  }

  /** The command runs: a request heard before reaches it now. */
  synchronized void started(ChildProcess started) {
    child = started;
    if (asked) {
      started.signal(Forwarded.TERM);
    }
  }
}
