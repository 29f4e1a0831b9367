package dev.baton.mysql;

import dev.baton.BackendUnavailableException;
import dev.baton.jdbc.JdbcCalls;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * The renewals of one client, one statement each ({@code refresh.sql}), sent one after the other on a thread of their
 * own, so that the engine's renewal never blocks on the server.
 *
 * <p>Threads: one daemon thread of its own.
 */
final class Renewals implements AutoCloseable {
  private final JdbcCalls calls;
  private final Sql sql;
  private final ExecutorService thread = Executors.newSingleThreadExecutor(task -> {
    Thread renewal = new Thread(task, "baton-mysql-renewal");
    renewal.setDaemon(true);
    return renewal;
  });

  Renewals(JdbcCalls calls, Sql sql) {
    this.calls = calls;
    this.sql = sql;
  }

  /**
   * Sets the expiry of {@code key}'s entry {@code entryId} to {@code ttl} from now by the database's clock, if it
   * is still there and has not expired: true if it was renewed, false if not; exceptionally as the statement failed
   * ({@link MySqlErrors}), or with {@link BackendUnavailableException} if the client closed first.
   */
  CompletionStage<Boolean> renew(String key, long entryId, Duration ttl) {
    CompletableFuture<Boolean> done = new CompletableFuture<>();
    try {
      thread.execute(() -> {
        try {
          done.complete(calls.call("Renewing '" + key + "'", connection -> {
            try (PreparedStatement update = calls.prepare(connection, sql.refresh)) {
              update.setLong(1, Math.max(1, ttl.toMillis()));
              update.setBytes(2, Keys.bytes(key));
              update.setLong(3, entryId);
              return update.executeUpdate() == 1;
            }
          }));
        } catch (RuntimeException e) {
          done.completeExceptionally(e);
        }
      });
    } catch (RejectedExecutionException e) {
      done.completeExceptionally(new BackendUnavailableException("Renewing '" + key + "': the client is closed."));
    }
    return done;
  }

  /** Stops renewing; renewals not yet sent fail as the client is closed. */
  @Override
  public void close() {
    thread.shutdown();
  }

  /** Waits up to {@code timeout} for the renewals under way to end. */
  void awaitTermination(Duration timeout) throws InterruptedException {
    thread.awaitTermination(timeout.toMillis(), TimeUnit.MILLISECONDS);
  }
}
