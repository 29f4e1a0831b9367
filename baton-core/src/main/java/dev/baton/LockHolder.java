package dev.baton;

import java.time.Instant;
import java.util.Objects;

/**
 * Who holds a lock, as its holder wrote it at the store when it acquired it: the machine, the process, the thread
 * and when, for the first question of an incident ("what is stuck, and where?"). Informational only: the time is
 * the holder's own clock, and a lock handed over between the threads of one client keeps the first thread's name.
 *
 * @param host the holder's host name
 * @param pid the holder's process id
 * @param thread the name of the thread that acquired the lock at the store
 * @param acquiredAt when it did, by the holder's clock
 */
public record LockHolder(String host, long pid, String thread, Instant acquiredAt) {
  public LockHolder {
    Objects.requireNonNull(host, "host");
    Objects.requireNonNull(thread, "thread");
    Objects.requireNonNull(acquiredAt, "acquiredAt");
  }
}
