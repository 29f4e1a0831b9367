package dev.baton.bench;

import dev.baton.DistributedLock;
import dev.baton.LockClient;
import dev.baton.etcd.EtcdLockClient;
import dev.baton.servers.EtcdServer;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KV;
import io.etcd.jetcd.options.PutOption;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
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
 * One thread locking and unlocking one free key on a single-member etcd started by the test kit: Baton's
 * lock (one transaction that puts the entry and reads the oldest, then a plain delete) against the raw
 * limit of the plain jetcd client, put bound to a lease + delete, two round trips.
 *
 * <p>{@code java -jar baton-bench/target/benchmarks.jar EtcdUncontended}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class EtcdUncontendedBenchmark {
  private static final ByteSequence RAW_KEY = ByteSequence.from("/raw/lock", StandardCharsets.UTF_8);
  private static final ByteSequence RAW_VALUE = ByteSequence.from("owner", StandardCharsets.UTF_8);

  private EtcdServer server;
  private LockClient baton;
  private DistributedLock lock;
  private Client raw;
  private KV rawKv;
  private PutOption withLease;

  @Setup(Level.Trial)
  public void start() throws InterruptedException, ExecutionException {
    server = new EtcdServer();
    server.start();
    baton = EtcdLockClient.connect(server.endpoint());
    lock = baton.lock("bench/uncontended");
    raw = Client.builder().endpoints(server.endpoint()).build();
    rawKv = raw.getKVClient();
    long lease = raw.getLeaseClient().grant(3600).get().getID(); // outlives the run without a keep-alive
    withLease = PutOption.builder().withLeaseId(lease).build();
  }

  @TearDown(Level.Trial)
  public void stop() {
    baton.close();
    raw.close();
    server.close();
  }

  /** {@code acquire()} + {@code close()}. */
  @Benchmark
  public void batonLease() throws InterruptedException {
    lock.acquire().close();
  }

  /** Put bound to a lease + delete: the store's limit for a lock cycle. */
  @Benchmark
  public void rawPutDelete() throws InterruptedException, ExecutionException {
    rawKv.put(RAW_KEY, RAW_VALUE, withLease).get();
    rawKv.delete(RAW_KEY).get();
  }
}
