package dev.baton.bench;

import dev.baton.DistributedLock;
import dev.baton.LockClient;
import dev.baton.embedded.EmbeddedZooKeeper;
import dev.baton.zookeeper.ZooKeeperLockClient;
import java.io.IOException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One thread locking and unlocking one free key on an in-process ZooKeeper server: Baton's fair lock
 * (create and getChildren sent back to back, then delete) against the raw limit of the plain client,
 * create ephemeral-sequential + delete, two round trips.
 *
 * <p>{@code java -jar baton-bench/target/benchmarks.jar ZooKeeperUncontended}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class ZooKeeperUncontendedBenchmark {
  private EmbeddedZooKeeper server;
  private LockClient baton;
  private DistributedLock lock;
  private ZooKeeper raw;

  @Setup(Level.Trial)
  public void start() throws IOException, InterruptedException, KeeperException {
    server = new EmbeddedZooKeeper();
    server.start();
    baton = ZooKeeperLockClient.connect(server.connectString());
    lock = baton.lock("bench/uncontended");
    CountDownLatch connected = new CountDownLatch(1);
    raw = new ZooKeeper(server.connectString(), 30_000, event -> {
      if (event.getState() == Watcher.Event.KeeperState.SyncConnected) {
        connected.countDown();
      }
    });
    if (!connected.await(10, TimeUnit.SECONDS)) {
      throw new IllegalStateException("The raw client did not connect to " + server.connectString());
    }
    raw.create("/raw", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
  }

  @TearDown(Level.Trial)
  public void stop() throws InterruptedException {
    baton.close();
    raw.close();
    server.stop();
  }

  /** {@code acquire()} + {@code close()} of the fair lock. */
  @Benchmark
  public void batonLease() throws InterruptedException {
    lock.acquire().close();
  }

  /** Create ephemeral-sequential + delete: the store's limit for a lock cycle. */
  @Benchmark
  public void rawCreateDelete() throws InterruptedException, KeeperException {
    String node = raw.create("/raw/lock-", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.EPHEMERAL_SEQUENTIAL);
    raw.delete(node, -1);
  }
}
