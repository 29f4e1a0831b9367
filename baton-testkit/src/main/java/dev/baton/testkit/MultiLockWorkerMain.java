package dev.baton.testkit;

import static org.awaitility.Awaitility.await;

import dev.baton.DistributedLock;
import dev.baton.Lease;
import dev.baton.LockClient;
import dev.baton.LockOptions;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * One process of the multi-lock proof: threads that each take, step after step, 2 to 4 random keys of ten with a
 * multi-lock (or one key with a lock, one step in eight) and update a counter per key held, a file of the parent's,
 * with a read-pause-write: a holder that overlaps another on a key loses an increment. Started by
 * {@link ContractMultiLock} through {@link ForkedMain}, three at a time.
 *
 * <p>Arguments: {@code <factoryClassName> <target> <keyPrefix> <counterDirectory> <threads> <steps> <waitMillis>}. The
 * keys are {@code <keyPrefix>/k0} to {@code k9}; their counters are the files {@code k0} to {@code k9} of the
 * directory, each holding a number. Connects, prints {@value #READY}, waits (up to a minute) for the file
 * {@value #GO} in the directory so that the processes start together, runs the steps, each acquire waiting up to
 * {@code waitMillis}, and prints {@code DONE} and how many increments it made per key, comma-separated. A step that
 * fails (a timeout, an error) fails the process: it prints {@code ERROR <reason>} and exits with status 1.
 */
public final class MultiLockWorkerMain {
  /** The line printed once connected, before the steps. */
  public static final String READY = "READY";
  /** The first word of the line printed when every step is done; the increments per key follow. */
  public static final String DONE = "DONE";
  /** The file whose creation in the counter directory starts the steps. */
  public static final String GO = "go";
  /** How many keys the workers choose from. */
  public static final int KEYS = 10;

  private static final Duration START_WITHIN = Duration.ofMinutes(1);
  private static final long PAUSE_NANOS = 300_000;

  private MultiLockWorkerMain() {}

  /** Runs the steps; see the class comment for the arguments. */
  public static void main(String[] args) {
    LockHolderMain.serve(() -> run(args), counts -> DONE + " " + counts);
  }

  /** The name of key {@code k}'s counter file, and of the key under the prefix. */
  public static String keyName(int k) {
    return "k" + k;
  }

  private static String run(String[] args) throws Exception {
    if (args.length != 7) {
      throw new IllegalArgumentException("Expected <factoryClassName> <target> <keyPrefix> <counterDirectory>"
          + " <threads> <steps> <waitMillis> but got " + args.length + " arguments.");
    }
    Path counters = Path.of(args[3]);
    int threads = Integer.parseInt(args[4]);
    int steps = Integer.parseInt(args[5]);
    try (LockClient client = LockHolderMain.connect(args[0], args[1])) {
      LockOptions options = client.defaultOptions().withWaitTime(Duration.ofMillis(Long.parseLong(args[6])));
      List<String> keys = IntStream.range(0, KEYS).mapToObj(k -> args[2] + "/" + keyName(k)).toList();
      AtomicLongArray increments = new AtomicLongArray(KEYS);
      System.out.println(READY);
      System.out.flush();
      await("the file " + GO + " in " + counters).atMost(START_WITHIN).pollInterval(Duration.ofMillis(10))
          .until(() -> Files.exists(counters.resolve(GO)));
      ExecutorService pool = Executors.newFixedThreadPool(threads);
      try {
        List<Future<Void>> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
          workers.add(pool.submit(() -> {
            for (int i = 0; i < steps; i++) {
              step(client, keys, options, counters, increments);
            }
            return null;
          }));
        }
        for (Future<Void> worker : workers) {
          worker.get();
        }
      } finally {
        pool.shutdownNow();
        pool.awaitTermination(10, TimeUnit.SECONDS);
      }
      return IntStream.range(0, KEYS).mapToObj(k -> Long.toString(increments.get(k)))
          .collect(Collectors.joining(","));
    }
  }

  /** One step: a random set of keys, held while each key's counter is read, paused over and written one more. */
  private static void step(LockClient client, List<String> keys, LockOptions options, Path counters,
      AtomicLongArray increments) throws InterruptedException, IOException {
    ThreadLocalRandom random = ThreadLocalRandom.current();
    List<Integer> chosen = new ArrayList<>(IntStream.range(0, KEYS).boxed().toList());
    Collections.shuffle(chosen, random);
    chosen = chosen.subList(0, random.nextInt(8) == 0 ? 1 : 2 + random.nextInt(3));
    DistributedLock lock = chosen.size() == 1 ? client.lock(keys.get(chosen.get(0)), options)
        : client.multiLock(chosen.stream().map(keys::get).toList(), options);
    try (Lease lease = lock.acquire()) {
      for (int k : chosen) {
        Path counter = counters.resolve(keyName(k));
        long read = Long.parseLong(Files.readString(counter, StandardCharsets.UTF_8).trim());
        LockSupport.parkNanos(PAUSE_NANOS);
        Files.writeString(counter, Long.toString(read + 1), StandardCharsets.UTF_8);
        increments.incrementAndGet(k);
      }
      if (!lease.isHeld()) {
        throw new IllegalStateException("The lease on " + lease.keys() + " ended (" + lease.state() + ") while its"
            + " counters were updated.");
      }
    }
  }
}
