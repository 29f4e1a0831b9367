package dev.baton.internal;

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
 * The releases that stores sent ahead of their answers ({@link dev.baton.spi.LockBackend#releaseInOrder}), across
 * every client of this process, by the name of the lock each releases: a client of this process waits for those that
 * another sender (another connection or session) sent before it acquires that lock, reads its status or lists it, so
 * that a release that returned is seen done in this process, as an answered one is. The sender's own later requests
 * need no wait: the store serves them after the release.
 *
 * <p>Baton's plumbing, shared by its stores; not API: {@code baton-core}'s module exports this package only to
 * Baton's modules, and it may change in any release.
 */
public final class ReleasesAhead {
  /** A release on its way: what sent it, and its answer. */
  private record Release(Object sender, CompletableFuture<?> answer) {}

  private static final Map<String, List<Release>> BY_LOCK = new ConcurrentHashMap<>();

  private ReleasesAhead() {}

  /**
   * Keeps the release of {@code lock}, sent by {@code sender} (compared with {@code equals}), until {@code answer}
   * completes, however it completes.
   */
  public static void add(String lock, Object sender, CompletableFuture<?> answer) {
    Release release = new Release(sender, answer);
    BY_LOCK.compute(lock, (name, releases) -> releases == null ? List.of(release) : with(releases, release));
    answer.whenComplete((result, error) -> BY_LOCK.computeIfPresent(lock, (name, releases) -> without(releases, release)));
  }

  /** Waits, at most {@code timeout} for each, for the releases of {@code lock} that other senders sent. */
  public static void awaitOthers(String lock, Object sender, Duration timeout) {
    List<Release> releases = BY_LOCK.get(lock);
    if (releases != null) {
      releases.forEach(release -> awaitIfOther(release, sender, timeout));
    }
  }

  /** Waits, at most {@code timeout} for each, for the releases of locks named from {@code prefix} on by other senders. */
  public static void awaitOthersUnder(String prefix, Object sender, Duration timeout) {
    BY_LOCK.forEach((lock, releases) -> {
      if (lock.startsWith(prefix)) {
        releases.forEach(release -> awaitIfOther(release, sender, timeout));
      }
    });
  }

  private static void awaitIfOther(Release release, Object sender, Duration timeout) {
    if (release.sender().equals(sender)) {
      return;
    }
    try {
      release.answer().get(timeout.toNanos(), TimeUnit.NANOSECONDS);
    } catch (ExecutionException | TimeoutException e) {
      // Failed or unanswered: its client retries it; the reader goes on and finds what the store has.
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static List<Release> with(List<Release> releases, Release release) {
    List<Release> more = new ArrayList<>(releases.size() + 1);
    more.addAll(releases);
    more.add(release);
    return List.copyOf(more);
  }

  private static List<Release> without(List<Release> releases, Release release) {
    List<Release> fewer = new ArrayList<>(releases);
    fewer.remove(release);
    return fewer.isEmpty() ? null : List.copyOf(fewer);
  }
}
