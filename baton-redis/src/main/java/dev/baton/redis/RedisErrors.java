package dev.baton.redis;

import dev.baton.BackendUnavailableException;
import dev.baton.LockException;
import dev.baton.PermissionDeniedException;
import io.lettuce.core.RedisCommandExecutionException;
import java.util.concurrent.CompletionException;

/** Turns Lettuce's exceptions into Baton's, naming the lock and the server. */
final class RedisErrors {
  /** The errors of a server that refuses the client, as Redis words them: not worth retrying. */
  private static final String[] REFUSALS = {"NOPERM", "NOAUTH", "WRONGPASS"};
  private static final String CHECK_CREDENTIALS = "check the user and password (BATON_USER and BATON_PASSWORD, or the"
      + " URI's) and the user's ACL: a lock needs EVALSHA, EVAL, SCRIPT LOAD, PUBLISH and SUBSCRIBE (SPUBLISH and"
      + " SSUBSCRIBE on a cluster) on the prefix's keys and channels.";

  private RedisErrors() {}

  static RuntimeException translate(RuntimeException e, String what, String server) {
    String refusal = refusal(e);
    if (refusal != null) {
      return new PermissionDeniedException(what + " was refused by Redis " + server + " (" + refusal + "): "
          + CHECK_CREDENTIALS, e);
    }
    if (e instanceof RedisCommandExecutionException && e.getMessage() != null && e.getMessage().startsWith("WRONGTYPE")) {
      return new LockException(what + " failed on Redis " + server + ": the key holds data that is not a Baton lock ("
          + e.getMessage() + "). Use another key prefix or remove that key.", e);
    }
    return new BackendUnavailableException(what + " failed on Redis " + server + ": " + e.getMessage(), e);
  }

  /** Connecting failed: refused, or the server could not be reached; then {@code advice} says what to check. */
  static RuntimeException connectFailed(RuntimeException e, String server, String advice) {
    String refusal = refusal(e);
    if (refusal != null) {
      return new PermissionDeniedException("Redis at " + server + " refused the connection (" + refusal + "): "
          + CHECK_CREDENTIALS, e);
    }
    Throwable cause = e.getCause() != null && e.getCause().getMessage() != null ? e.getCause() : e;
    // An asynchronous connect wraps the socket's error once more: its message is the one to show.
    while (cause instanceof CompletionException && cause.getCause() != null) {
      cause = cause.getCause();
    }
    return new BackendUnavailableException("Cannot connect to Redis at " + server + ": " + cause.getMessage() + ". "
        + advice, e);
  }

  /** The server's refusal somewhere in the chain of causes, or null if it is no refusal. */
  private static String refusal(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      String message = t.getMessage();
      if (t instanceof RedisCommandExecutionException && message != null) {
        for (String refusal : REFUSALS) {
          if (message.startsWith(refusal)) {
            return message;
          }
        }
      }
    }
    return null;
  }
}
