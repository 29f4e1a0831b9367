import dev.baton.DistributedLock;
import dev.baton.LockClient;
import dev.baton.zookeeper.ZooKeeperLockClient;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.apache.curator.retry.RetryNTimes;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;

/**
 * One thread locking and unlocking one free key on a ZooKeeper server of another process, four ways in turn within
 * each round (the order alternating from round to round): the raw create ephemeral-sequential + delete of the plain
 * client, Baton's Lock view (lock() + unlock(), whose release is sent ahead of its answer), Curator's
 * InterProcessMutex and Baton's Lease (acquire() + close(), whose release waits for its answer). Prints per round
 * each one's cycles a second and the CPU time per cycle of this JVM's Java threads (the caller, the clients' I/O and
 * event threads; not the JIT's nor the collector's), and the Lock view's ratios to the three others within the round.
 * Run by bench/zk-one-thread/run.
 */
public final class ZkOneThread {
  interface Cycle {
    void run() throws Exception;
  }

  record Contender(String name, Cycle cycle) {}

  public static void main(String[] args) throws Exception {
    String connect = args[0];
    int rounds = Integer.parseInt(args[1]);
    long roundNanos = TimeUnit.MILLISECONDS.toNanos(Long.parseLong(args[2]));
    long warmupNanos = TimeUnit.MILLISECONDS.toNanos(Long.parseLong(args[3]));

    ZooKeeper raw = connectRaw(connect);
    try {
      raw.create("/raw", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
    } catch (KeeperException.NodeExistsException e) {
      // an earlier run's
    }
    LockClient baton = ZooKeeperLockClient.connect(connect);
    DistributedLock lock = baton.lock("bench/one-thread");
    CuratorFramework curator = CuratorFrameworkFactory.newClient(connect, new RetryNTimes(3, 100));
    curator.start();
    curator.blockUntilConnected();
    InterProcessMutex mutex = new InterProcessMutex(curator, "/curator/one-thread");

    List<Contender> contenders = List.of(
        new Contender("raw", () -> raw.delete(raw.create("/raw/one-", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE,
            CreateMode.EPHEMERAL_SEQUENTIAL), -1)),
        new Contender("baton", () -> {
          lock.lock();
          lock.unlock();
        }),
        new Contender("curator", () -> {
          mutex.acquire();
          mutex.release();
        }),
        new Contender("baton-lease", () -> lock.acquire().close()));
    for (Contender c : contenders) {
      measure(c, warmupNanos);
    }
    System.out.printf("round  %-30s %-30s %-30s %-30s  baton/raw  baton/curator  baton/lease%n",
        "raw /s (CPU µs/cycle)", "baton /s (CPU µs/cycle)", "curator /s (CPU µs/cycle)",
        "baton-lease /s (CPU µs/cycle)");
    for (int round = 1; round <= rounds; round++) {
      List<Contender> order = new ArrayList<>(contenders);
      if (round % 2 == 0) {
        java.util.Collections.reverse(order);
      }
      double[][] result = new double[contenders.size()][];
      for (Contender c : order) {
        result[contenders.indexOf(c)] = measure(c, roundNanos);
      }
      StringBuilder line = new StringBuilder(String.format("%5d", round));
      for (double[] r : result) {
        line.append(String.format("  %-28s", String.format("%,.0f (%.0f)", r[0], r[1])));
      }
      line.append(String.format("  %9.2f  %13.2f  %11.2f", result[1][0] / result[0][0], result[1][0] / result[2][0],
          result[1][0] / result[3][0]));
      System.out.println(line);
    }
    curator.close();
    baton.close();
    raw.close();
  }

  /** Cycles a second, and CPU µs per cycle, over about {@code nanos}. */
  private static double[] measure(Contender c, long nanos) throws Exception {
    java.util.Map<String, Long> before = perThread();
    long cpu0 = javaThreadsCpu();
    long start = System.nanoTime();
    long end = start + nanos;
    long cycles = 0;
    long now;
    do {
      for (int i = 0; i < 50; i++) {
        c.cycle().run();
      }
      cycles += 50;
      now = System.nanoTime();
    } while (now < end);
    long cpu = javaThreadsCpu() - cpu0;
    if (System.getenv("ZK_THREADS") != null) {
      final long n = cycles;
      perThread().forEach((name, t) -> {
        long d = t - before.getOrDefault(name, 0L);
        if (d > n * 2000) {
          System.out.printf("    %s %s %.0f%n", c.name(), name, d / 1e3 / n);
        }
      });
    }
    return new double[] {cycles * 1e9 / (now - start), cpu / 1e3 / cycles};
  }

  /**
   * The CPU time of this JVM's Java threads, live or ended since (an ended thread's time is lost, so the clients'
   * threads are those that live through the run): the callers and the clients' threads, not the JIT's compiler threads
   * nor the collector's, whose work a warm-up settles and whose share moves with the machine's load.
   */
  private static long javaThreadsCpu() {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    long total = 0;
    for (long id : threads.getAllThreadIds()) {
      long cpu = threads.getThreadCpuTime(id);
      if (cpu > 0) {
        total += cpu;
      }
    }
    return total;
  }

  private static java.util.Map<String, Long> perThread() {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    java.util.Map<String, Long> out = new java.util.HashMap<>();
    for (var info : threads.getThreadInfo(threads.getAllThreadIds())) {
      if (info != null) {
        out.put(info.getThreadName() + "#" + info.getThreadId(), threads.getThreadCpuTime(info.getThreadId()));
      }
    }
    return out;
  }

  private static ZooKeeper connectRaw(String connect) throws Exception {
    CountDownLatch connected = new CountDownLatch(1);
    ZooKeeper zk = new ZooKeeper(connect, 10_000, event -> {
      if (event.getState() == Watcher.Event.KeeperState.SyncConnected) {
        connected.countDown();
      }
    });
    if (!connected.await(10, TimeUnit.SECONDS)) {
      throw new IllegalStateException("no connection to " + connect);
    }
    return zk;
  }
}
