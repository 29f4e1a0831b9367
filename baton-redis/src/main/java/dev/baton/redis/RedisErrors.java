package dev.baton.redis;

import dev.baton.BackendUnavailableException;
import dev.baton.LockException;
import io.lettuce.core.RedisCommandExecutionException;

/** Turns Lettuce's exceptions into Baton's, naming the lock and the server. */
final class RedisErrors {
  private RedisErrors() {}

  static RuntimeException translate(RuntimeException e, String what, String server) {
    if (e instanceof RedisCommandExecutionException && e.getMessage() != null && e.getMessage().startsWith("WRONGTYPE")) {
      return new LockException(what + " failed on Redis " + server + ": the key holds data that is not a Baton lock ("
          + e.getMessage() + "). Use another key prefix or remove that key.", e);
    }
    return new BackendUnavailableException(what + " failed on Redis " + server + ": " + e.getMessage(), e);
  }
}
