package dev.baton.etcd;

import dev.baton.BackendUnavailableException;
import dev.baton.PermissionDeniedException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Waits for jetcd's futures with a bound, and turns their failures into Baton's exceptions. */
final class EtcdCalls {
  /**
   * How etcd words a refusal of the client, whatever gRPC status carries it: no user given to a server with
   * authentication on, a wrong password, a token it no longer knows, a role without the permission.
   */
  private static final List<String> REFUSALS = List.of("PERMISSION_DENIED", "UNAUTHENTICATED", "permission denied",
      "authentication failed", "user name is empty", "user name not found", "invalid auth token");

  private EtcdCalls() {}

  /**
   * The call's answer, within {@code timeout}. A call given up on is not cancelled: jetcd would not stop a request
   * already sent, a write's answer is still wanted ({@link EtcdAttempt#abandon()} waits for it), and a future may be
   * shared by several waiters ({@link LeaseLife}).
   */
  static <T> T await(CompletableFuture<T> call, Duration timeout, String what) {
    try {
      return call.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
    } catch (ExecutionException e) {
      throw translate(e.getCause(), what);
    } catch (TimeoutException e) {
      throw new BackendUnavailableException(what + ": etcd did not answer within " + timeout.toMillis() + " ms", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new BackendUnavailableException(what + " was interrupted while waiting for etcd", e);
    }
  }

  static RuntimeException translate(Throwable cause, String what) {
    String message = String.valueOf(cause.getMessage());
    if (REFUSALS.stream().anyMatch(message::contains)) {
      return new PermissionDeniedException(what + " was refused by etcd (" + message + "): check the user and its"
          + " password (BATON_USER and BATON_PASSWORD, or the builder's user) and its role's permissions on the"
          + " namespace.", cause);
    }
    return new BackendUnavailableException(what + " failed on etcd: " + message, cause);
  }
}
