import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.Lock;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;

/**
 * jetcd's {@code Lock} on the jetcd line of the class path it runs on, in a JVM of its own: the bench's
 * JetcdCurrentLockContender starts it with the etcd endpoint as its argument, on jetcd's current line, which cannot
 * share the bench's class path. It runs the loop of the bench's JetcdLockContender and of its Load: a lease of one
 * hour per thread, granted on the thread's first lock and revoked at the end; threads that start together and each
 * stop at the first cycle they end past the deadline. That code is repeated here, not shared: this file is compiled
 * alone (Java 17's source launcher takes one file) against jetcd's class path, where none of the bench's classes is.
 *
 * <p>It answers {@code READY} once connected, then reads one command a line on standard input:
 *
 * <ul>
 *   <li>{@code RUN MILLIS KEY...}: a thread per key (a key may repeat) locks and unlocks it that long, answers
 *       {@code RAN CYCLES NANOS COMPILE_MILLIS} (the last: how long its JIT compiled meanwhile), then each cycle's
 *       wait for the lock and each cycle's time, in nanoseconds;
 *   <li>{@code CLOSE}: revokes the leases, closes the client, answers {@code CLOSED} and exits, as at the end of its
 *       input.
 * </ul>
 *
 * <p>A failure answers {@code ERROR MESSAGE} and exits 1.
 */
public final class JetcdLockPeer {
  private static final long LEASE_SECONDS = 3600;

  private final Client client;
  private final Lock locks;
  private final ThreadLocal<Long> threadLease = new ThreadLocal<>();
  private final List<Long> leases = new CopyOnWriteArrayList<>();

  private JetcdLockPeer(String endpoint) {
    client = Client.builder().endpoints(endpoint).build();
    locks = client.getLockClient();
  }

  /** Serves commands until {@code CLOSE} or the end of standard input. */
  public static void main(String[] args) throws Exception {
    PrintStream out = System.out;
    try {
      JetcdLockPeer peer = new JetcdLockPeer(args[0]);
      peer.client.getKVClient().get(ByteSequence.from("/jetcd-current/ready", StandardCharsets.UTF_8)).get();
      out.println("READY");
      out.flush();
      BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
      for (String line = in.readLine(); line != null && !line.equals("CLOSE"); line = in.readLine()) {
        String[] words = line.split(" ");
        if (!words[0].equals("RUN")) {
          throw new IllegalArgumentException("Unknown command: " + line);
        }
        out.println(peer.run(Long.parseLong(words[1]), Arrays.asList(words).subList(2, words.length)));
        out.flush();
      }
      peer.close();
      out.println("CLOSED");
      out.flush();
    } catch (Exception e) {
      e.printStackTrace();
      out.println("ERROR " + e);
      out.flush();
      System.exit(1);
    }
    System.exit(0);
  }

  /** The load of one {@code RUN}: the {@code RAN} answer. */
  private String run(long millis, List<String> keys) throws Exception {
    CountDownLatch ready = new CountDownLatch(keys.size());
    CountDownLatch go = new CountDownLatch(1);
    long[] deadline = new long[1];
    AtomicReference<Throwable> failure = new AtomicReference<>();
    List<Thread> threads = new ArrayList<>();
    List<List<long[]>> samples = new ArrayList<>();
    for (int i = 0; i < keys.size(); i++) {
      ByteSequence name = ByteSequence.from("/jetcd-current/" + keys.get(i), StandardCharsets.UTF_8);
      List<long[]> threadSamples = new ArrayList<>();
      samples.add(threadSamples);
      Thread thread = new Thread(() -> {
        try {
          long lease = leaseOfThisThread();
          ready.countDown();
          go.await();
          long end = deadline[0];
          long now = System.nanoTime();
          while (now < end) {
            long start = now;
            ByteSequence held = locks.lock(name, lease).get().getKey();
            long acquired = System.nanoTime();
            locks.unlock(held).get();
            now = System.nanoTime();
            threadSamples.add(new long[] {acquired - start, now - start});
          }
        } catch (Throwable e) {
          failure.compareAndSet(null, e);
          ready.countDown();
        }
      }, "jetcd-peer-load-" + i);
      thread.setDaemon(true);
      threads.add(thread);
      thread.start();
    }
    ready.await();
    long compiledBefore = ManagementFactory.getCompilationMXBean().getTotalCompilationTime();
    long start = System.nanoTime();
    deadline[0] = start + millis * 1_000_000;
    go.countDown();
    for (Thread thread : threads) {
      thread.join();
    }
    long elapsed = System.nanoTime() - start;
    long compiled = ManagementFactory.getCompilationMXBean().getTotalCompilationTime() - compiledBefore;
    if (failure.get() != null) {
      throw new IllegalStateException("A benchmark thread failed: " + failure.get(), failure.get());
    }
    List<long[]> all = samples.stream().flatMap(List::stream).toList();
    StringBuilder answer = new StringBuilder("RAN ").append(all.size()).append(' ').append(elapsed)
        .append(' ').append(compiled);
    all.forEach(sample -> answer.append(' ').append(sample[0]));
    all.forEach(sample -> answer.append(' ').append(sample[1]));
    return answer.toString();
  }

  private long leaseOfThisThread() throws Exception {
    Long lease = threadLease.get();
    if (lease == null) {
      lease = client.getLeaseClient().grant(LEASE_SECONDS).get().getID();
      threadLease.set(lease);
      leases.add(lease);
    }
    return lease;
  }

  private void close() throws Exception {
    for (long lease : leases) {
      client.getLeaseClient().revoke(lease).get();
    }
    client.close();
  }
}
