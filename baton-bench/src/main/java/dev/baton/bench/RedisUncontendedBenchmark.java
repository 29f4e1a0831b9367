package dev.baton.bench;

import dev.baton.DistributedLock;
import dev.baton.LockClient;
import dev.baton.redis.RedisLockClient;
import dev.baton.servers.RedisServer;
import io.lettuce.core.RedisClient;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
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
 * One thread locking and unlocking one free key: Baton's two views against the raw limit of Redis,
 * two {@code EVALSHA} round trips from Lettuce (set-if-absent with expiry, compare-and-delete), on the
 * same server started here.
 *
 * <p>{@code java -jar baton-bench/target/benchmarks.jar RedisUncontended}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class RedisUncontendedBenchmark {
  private static final String[] RAW_KEY = {"bench:raw"};

  private RedisServer server;
  private LockClient baton;
  private DistributedLock lock;
  private RedisClient rawClient;
  private StatefulRedisConnection<String, String> rawConnection;
  private RedisCommands<String, String> raw;
  private String rawAcquire;
  private String rawRelease;

  @Setup(Level.Trial)
  public void start() {
    server = new RedisServer();
    server.start();
    baton = RedisLockClient.connect(server.uri());
    lock = baton.lock("bench/uncontended");
    rawClient = RedisClient.create(server.uri());
    rawConnection = rawClient.connect();
    raw = rawConnection.sync();
    rawAcquire = raw.scriptLoad(script("raw-acquire.lua"));
    rawRelease = raw.scriptLoad(script("raw-release.lua"));
  }

  @TearDown(Level.Trial)
  public void stop() {
    baton.close();
    rawConnection.close();
    rawClient.shutdown();
    server.stop();
  }

  /** {@code lock()} + {@code unlock()}: the thread-owned view. */
  @Benchmark
  public void batonLockUnlock() {
    lock.lock();
    lock.unlock();
  }

  /** {@code acquire()} + {@code close()}: the lease view. */
  @Benchmark
  public void batonLease() throws InterruptedException {
    lock.acquire().close();
  }

  /** Two raw {@code EVALSHA} round trips: the store's limit for a lock cycle. */
  @Benchmark
  public Object rawTwoEvalsha() {
    raw.evalsha(rawAcquire, ScriptOutputType.STATUS, RAW_KEY, "owner", "30000");
    return raw.evalsha(rawRelease, ScriptOutputType.INTEGER, RAW_KEY, "owner");
  }

  private static String script(String name) {
    try (InputStream in = RedisUncontendedBenchmark.class.getResourceAsStream(name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
