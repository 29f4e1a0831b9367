package dev.baton.etcd;

import dev.baton.BackendUnavailableException;
import dev.baton.LockException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Waits for jetcd's futures with a bound, and turns their failures into Baton's exceptions. */
final class EtcdCalls {
  private EtcdCalls() {}

  static <T> T await(CompletableFuture<T> call, Duration timeout, String what) {
    try {
      return call.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
    } catch (ExecutionException e) {
      throw translate(e.getCause(), what);
    } catch (TimeoutException e) {
      call.cancel(true);
      throw new BackendUnavailableException(what + ": etcd did not answer within " + timeout.toMillis() + " ms", e);
    } catch (InterruptedException e) {
      call.cancel(true);
      Thread.currentThread().interrupt();
      throw new BackendUnavailableException(what + " was interrupted while waiting for etcd", e);
    }
  }

  static RuntimeException translate(Throwable cause, String what) {
    String message = String.valueOf(cause.getMessage());
    if (message.contains("PERMISSION_DENIED") || message.contains("permission denied")
        || message.contains("authentication failed")) {
      return new LockException(what + " was refused by etcd (" + message + "): check the user, its password"
          + " and its role's permissions on the namespace.", cause);
    }
    return new BackendUnavailableException(what + " failed on etcd: " + message, cause);
  }
}
