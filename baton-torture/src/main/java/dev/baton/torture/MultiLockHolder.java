package dev.baton.torture;

import dev.baton.Lease;
import dev.baton.LockClient;
import dev.baton.LockException;
import dev.baton.LockOptions;
import dev.baton.torture.History.Kind;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.IntStream;

/**
 * A torture worker's holds of a multi-lock ({@link Primitive#MULTI_LOCK}): each takes 2 to 4 random keys of the
 * {@value Primitive#MULTI_KEYS} under the torture's key with {@code client.multiLock}, waiting without limit (so that
 * a deadlock would stall the worker for good, which the checker sees), pauses and releases. Each key has a history
 * of its own beside the worker's ({@link #keyHistory}): the hold's ask, grant (with the key's fencing token), loss
 * and release, so that the checker holds each key to one holder at a time; the worker's history has the whole hold,
 * with the largest token, for its count and the run's progress.
 */
final class MultiLockHolder {
  private final String key;
  private final WorkerHistory history;
  private final List<WorkerHistory> keyHistories = new ArrayList<>();
  private final HeldWork work;

  MultiLockHolder(String key, Path historyFile, WorkerHistory history, HeldWork work) throws IOException {
    this.key = key;
    this.history = history;
    this.work = work;
    for (int k = 0; k < Primitive.MULTI_KEYS; k++) {
      keyHistories.add(new WorkerHistory(keyHistory(historyFile, k)));
    }
  }

  /** The history of key {@code k}'s holds beside the worker's {@code historyFile}. */
  static Path keyHistory(Path historyFile, int k) {
    return historyFile.resolveSibling(historyFile.getFileName() + ".key" + k);
  }

  /** The name of key {@code k} under the torture's {@code key}. */
  static String keyName(String key, int k) {
    return key + "/" + k;
  }

  /** One hold of a random set of keys, waiting without limit. */
  void holdOnce(LockClient client, LockOptions options) throws InterruptedException {
    ThreadLocalRandom random = ThreadLocalRandom.current();
    List<Integer> all = new ArrayList<>(IntStream.range(0, Primitive.MULTI_KEYS).boxed().toList());
    Collections.shuffle(all, random);
    List<Integer> chosen = List.copyOf(all.subList(0, 2 + random.nextInt(3)));
    history.record(Kind.ASK, 0, History.EXCLUSIVE);
    chosen.forEach(k -> keyHistories.get(k).record(Kind.ASK, 0, History.EXCLUSIVE));
    Lease lease = client.multiLock(chosen.stream().map(k -> keyName(key, k)).toList(), options.withWaitTime(null))
        .acquire();
    long token = lease.fencingToken();
    long granted = System.nanoTime();
    history.record(granted, Kind.GRANT, token, lease.ownerId());
    for (int k : chosen) {
      keyHistories.get(k).record(granted, Kind.GRANT, lease.fencingToken(keyName(key, k)), lease.ownerId());
    }
    lease.onLost(reason -> {
      history.record(Kind.LOST, token, String.valueOf(reason));
      chosen.forEach(k -> keyHistories.get(k).record(Kind.LOST, lease.fencingToken(keyName(key, k)),
          String.valueOf(reason)));
    });
    System.out.println("HELD " + token);
    try {
      work.pause();
    } finally {
      long released = System.nanoTime();
      history.record(released, Kind.RELEASE, token, "-");
      for (int k : chosen) {
        keyHistories.get(k).record(released, Kind.RELEASE, lease.fencingToken(keyName(key, k)), "-");
      }
      System.out.println("FREE");
      try {
        lease.close();
      } catch (LockException e) {
        history.record(Kind.ERROR, token, "release: " + e);
      }
    }
  }
}
