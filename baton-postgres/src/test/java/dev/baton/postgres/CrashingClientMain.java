package dev.baton.postgres;

import dev.baton.LockClient;
import dev.baton.LockOptions;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.ref.Reference;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A client that holds and waits on many keys until it is killed, to see what a crashed client leaves in the lock
 * table. Started by {@link PostgresSweepTest} in a JVM of its own.
 *
 * <p>Arguments: {@code <address> <prefix> <keys> <waitedKeys> <ttlMillis>}. Holds {@code keys} locks
 * ({@code prefix/held/i}), as many read locks ({@code prefix/read/i}) and permits ({@code prefix/permit/i}, of 3),
 * then waits, without a bound, for {@code prefix/waited/0} to {@code prefix/waited/(waitedKeys-1)}, which the test
 * holds; every entry lives {@code ttlMillis} unless renewed. Prints {@code READY} once it holds all it holds (its
 * waits may still be on their way to the server), then blocks until its standard input ends (the test died).
 */
public final class CrashingClientMain {
  /** The line printed once the client holds its keys. */
  static final String READY = "READY";

  private CrashingClientMain() {}

  /** Holds and waits; see the class comment for the arguments. */
  public static void main(String[] args) throws InterruptedException, IOException {
    String prefix = args[1];
    int keys = Integer.parseInt(args[2]);
    int waitedKeys = Integer.parseInt(args[3]);
    LockOptions options = LockOptions.defaults().withTtl(Duration.ofMillis(Long.parseLong(args[4])));
    LockClient client = PostgresLockClient.builder().address(args[0]).defaultOptions(options).connect();
    List<Object> kept = new ArrayList<>(); // a lease no longer reachable may be released
    for (int i = 0; i < keys; i++) {
      kept.add(client.lock(prefix + "/held/" + i).acquire(Duration.ofSeconds(10)));
      kept.add(client.readWriteLock(prefix + "/read/" + i).readLock().acquire(Duration.ofSeconds(10)));
      kept.add(client.semaphore(prefix + "/permit/" + i, 3).acquire(Duration.ofSeconds(10)));
    }
    for (int i = 0; i < waitedKeys; i++) {
      kept.add(client.lock(prefix + "/waited/" + i).acquireAsync());
    }
    System.out.println(READY);
    System.out.flush();
    System.in.transferTo(OutputStream.nullOutputStream());
    Reference.reachabilityFence(kept);
    Reference.reachabilityFence(client);
    System.exit(0);
  }
}
