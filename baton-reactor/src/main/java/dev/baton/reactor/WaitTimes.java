package dev.baton.reactor;

import dev.baton.LockOptions;
import java.time.Duration;

/** The check of a wait time given apart from the options: not null, and in the range options accept. */
final class WaitTimes {
  private WaitTimes() {}

  static Duration checked(Duration waitTime) {
    if (waitTime == null) {
      throw new IllegalArgumentException("The wait time must not be null: use Duration.ZERO to try once, or the "
          + "method without a wait time to wait as the handle's options say.");
    }
    LockOptions.defaults().withWaitTime(waitTime);
    return waitTime;
  }
}
