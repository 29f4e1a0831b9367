package dev.baton.zookeeper;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The deletes of lock nodes sent ahead of their answers ({@link ZooKeeperBackend#releaseInOrder}), across every client
 * of this process, by lock path: another session of this process waits for them before it acquires the key, reads its
 * status or lists it, so that a release that returned is seen done in this process, as an answered one is. The
 * releasing session's own requests need no wait: ZooKeeper serves a session's requests in order.
 */
final class DeletesInFlight {
  /** A delete on its way: the session that sent it, and its answer. */
  private record Delete(long session, CompletableFuture<?> answer) {}

  private static final Map<String, List<Delete>> BY_LOCK_PATH = new ConcurrentHashMap<>();

  private DeletesInFlight() {}

  /** Keeps the delete of a node under {@code lockPath}, sent by {@code session}, until {@code answer} completes. */
  static void add(String lockPath, long session, CompletableFuture<?> answer) {
    Delete delete = new Delete(session, answer);
    BY_LOCK_PATH.compute(lockPath, (path, deletes) -> deletes == null ? List.of(delete) : with(deletes, delete));
    answer.whenComplete((result, error) -> BY_LOCK_PATH.computeIfPresent(lockPath, (path, deletes) -> without(deletes, delete)));
  }

  /** Waits, at most {@code timeout} for each, for the deletes under {@code lockPath} that other sessions sent. */
  static void awaitOthers(String lockPath, long session, Duration timeout) {
    List<Delete> deletes = BY_LOCK_PATH.get(lockPath);
    if (deletes != null) {
      deletes.forEach(delete -> awaitIfOthers(delete, session, timeout));
    }
  }

  /** Waits, at most {@code timeout} for each, for the deletes under {@code pathPrefix} that other sessions sent. */
  static void awaitOthersUnder(String pathPrefix, long session, Duration timeout) {
    BY_LOCK_PATH.forEach((path, deletes) -> {
      if (path.startsWith(pathPrefix)) {
        deletes.forEach(delete -> awaitIfOthers(delete, session, timeout));
      }
    });
  }

  private static void awaitIfOthers(Delete delete, long session, Duration timeout) {
    if (delete.session() == session) {
      return;
    }
    try {
      delete.answer().get(timeout.toNanos(), TimeUnit.NANOSECONDS);
    } catch (ExecutionException | TimeoutException e) {
      // Failed or unanswered: its client retries it; the reader goes on and finds what the store has.
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static List<Delete> with(List<Delete> deletes, Delete delete) {
    List<Delete> more = new ArrayList<>(deletes.size() + 1);
    more.addAll(deletes);
    more.add(delete);
    return List.copyOf(more);
  }

  private static List<Delete> without(List<Delete> deletes, Delete delete) {
    List<Delete> fewer = new ArrayList<>(deletes);
    fewer.remove(delete);
    return fewer.isEmpty() ? null : List.copyOf(fewer);
  }
}
