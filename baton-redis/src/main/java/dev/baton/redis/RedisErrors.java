package dev.baton.redis;

import dev.baton.BackendSetupException;
import dev.baton.BackendUnavailableException;
import dev.baton.PermissionDeniedException;
import io.lettuce.core.RedisCommandExecutionException;
import java.util.concurrent.CompletionException;

/** Turns Lettuce's exceptions into Baton's, naming the lock and the server. */
final class RedisErrors {
  /** The errors of a server that refuses the client, as Redis words them: not worth retrying. */
  private static final String[] REFUSALS = {"NOPERM", "NOAUTH", "WRONGPASS"};
  /**
   * The replies of a cluster node while the slot of a command's keys moves to another master (a resharding), as Redis
   * words them: TRYAGAIN for a script of several keys that are split between the two, ASK and MOVED when Lettuce did
   * not follow them to the end. Worth retrying: they pass once the move ends.
   */
  private static final String[] SLOT_MOVES = {"TRYAGAIN", "ASK", "MOVED"};
  /** A node's answer that a key's slot is served elsewhere, now or for the time of a move. */
  private static final String[] REDIRECTIONS = {"ASK", "MOVED"};
  private static final String CHECK_CREDENTIALS = "check the user and password (BATON_USER and BATON_PASSWORD, or the"
      + " URI's) and the user's ACL: a lock needs EVALSHA, EVAL, SCRIPT LOAD, PUBLISH and SUBSCRIBE (SPUBLISH and"
      + " SSUBSCRIBE on a cluster) on the prefix's keys and channels.";

  private RedisErrors() {}

  static RuntimeException translate(RuntimeException e, String what, String server) {
    String refusal = reply(e, REFUSALS);
    if (refusal != null) {
      return new PermissionDeniedException(what + " was refused by Redis " + server + " (" + refusal + "): "
          + CHECK_CREDENTIALS, e);
    }
    String slotMove = reply(e, SLOT_MOVES);
    if (slotMove != null) {
      return new BackendUnavailableException(what + " met its slot moving to another master of Redis " + server + " ("
          + slotMove + "); it is tried again until the move ends. If that lasts, a resharding may have stopped half"
          + " way: redis-cli --cluster check names such a slot, and --cluster fix ends its move.", e);
    }
    if (e instanceof RedisCommandExecutionException && e.getMessage() != null && e.getMessage().startsWith("WRONGTYPE")) {
      return new BackendSetupException(what + " failed on Redis " + server + ": the key holds data that is not a"
          + " Baton lock (" + e.getMessage() + "). Use another namespace or remove that key.", e);
    }
    return new BackendUnavailableException(what + " failed on Redis " + server + ": " + e.getMessage(), e);
  }

  /** Connecting failed: refused, or the server could not be reached; then {@code advice} says what to check. */
  static RuntimeException connectFailed(RuntimeException e, String server, String advice) {
    String refusal = reply(e, REFUSALS);
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

  /** Whether a node answered, somewhere in the chain of causes, that the key is served elsewhere (MOVED, ASK). */
  static boolean isRedirection(Throwable e) {
    return reply(e, REDIRECTIONS) != null;
  }

  /** The server's error reply somewhere in the chain of causes that starts with one of {@code codes}, or null. */
  private static String reply(Throwable e, String[] codes) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      String message = t.getMessage();
      if (t instanceof RedisCommandExecutionException && message != null) {
        for (String code : codes) {
          if (message.startsWith(code)) {
            return message;
          }
        }
      }
    }
    return null;
  }
}
