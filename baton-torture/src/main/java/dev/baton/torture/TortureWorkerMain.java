package dev.baton.torture;

import dev.baton.DistributedReadWriteLock;
import dev.baton.Lease;
import dev.baton.LockClient;
import dev.baton.LockException;
import dev.baton.LockOptions;
import dev.baton.LockTimeoutException;
import dev.baton.torture.History.Kind;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/**
 * One torture worker, in a JVM of its own. For a lock, a read-write lock or a semaphore it loops acquiring the key with
 * a wait timeout, does its {@link HeldWork} (a holder alone reads the fenced register, pauses and writes the value it
 * read plus one with its fencing token; a reader reads and pauses; a permit holder pauses) and releases; one hold in
 * {@value #WRITERS_ONE_IN} of a read-write lock's is a writer's. For leadership it stands as a {@link LeaderCandidate};
 * for a multi-lock it takes random sets of keys ({@link MultiLockHolder}). Every step goes to its history file. It
 * prints {@code HELD token} and {@code FREE} so that the torture knows whom to pause or kill, and stops after its
 * current hold when its standard input ends.
 *
 * <p>Arguments:
 * {@code factoryClass target key ttlMillis waitMillis workMillis registerPort historyFile name primitive permits}, the
 * primitive as on the command line ({@link Primitive#option()}).
 */
public final class TortureWorkerMain {
  private static final Duration BACK_OFF = Duration.ofMillis(100);
  /** Readers outnumber writers, so that readers meet at the store, and a writer still comes every few holds. */
  private static final int WRITERS_ONE_IN = 3;
  private static final int ARGUMENTS = 11;

  private final String factory;
  private final String target;
  private final String key;
  private final Duration ttl;
  private final Duration wait;
  private final Primitive primitive;
  private final int permits;
  private final WorkerHistory history;
  private final HeldWork work;
  private final MultiLockHolder multi;
  private volatile boolean stopping;

  private TortureWorkerMain(String[] args) throws IOException {
    factory = args[0];
    target = args[1];
    key = args[2];
    ttl = Duration.ofMillis(Long.parseLong(args[3]));
    wait = Duration.ofMillis(Long.parseLong(args[4]));
    history = new WorkerHistory(Path.of(args[7]));
    work = new HeldWork(new RegisterConnection(Integer.parseInt(args[6])), history, Long.parseLong(args[5]), args[8]);
    primitive = Primitive.fromOption(args[9]);
    permits = Integer.parseInt(args[10]);
    multi = primitive == Primitive.MULTI_LOCK ? new MultiLockHolder(key, Path.of(args[7]), history, work) : null;
  }

  /** Runs the worker; see the class comment for the arguments. */
  public static void main(String[] args) throws Exception {
    if (args.length != ARGUMENTS) {
      throw new IllegalArgumentException("Expected factoryClass target key ttlMillis waitMillis workMillis"
          + " registerPort historyFile name primitive permits, but got " + args.length + " arguments.");
    }
    TortureWorkerMain worker = new TortureWorkerMain(args);
    Thread stdin = new Thread(worker::stopAtEndOfInput, "torture-stdin");
    stdin.setDaemon(true);
    stdin.start();
    worker.run();
    System.exit(0);
  }

  private void run() throws InterruptedException, ReflectiveOperationException {
    LockClientFactory clients = Class.forName(factory).asSubclass(LockClientFactory.class)
        .getDeclaredConstructor().newInstance();
    LockClient client = null;
    while (!stopping) {
      try {
        if (client == null) {
          client = clients.connect(target); // the store may be in the middle of a fault: try until it answers
        }
        if (primitive == Primitive.LEADERSHIP) {
          new LeaderCandidate(history, work).stand(client, key, ttl, () -> stopping);
        } else if (primitive == Primitive.MULTI_LOCK) {
          multi.holdOnce(client, client.defaultOptions().withTtl(ttl));
        } else {
          holdOnce(client, client.defaultOptions().withTtl(ttl).withWaitTime(wait));
        }
      } catch (LockTimeoutException e) {
        history.record(Kind.TIMEOUT, 0, "-");
      } catch (IOException | RuntimeException e) {
        history.record(Kind.ERROR, 0, e.toString());
        Thread.sleep(BACK_OFF.toMillis()); // the store is down: do not spin against it
      }
    }
    if (client != null) {
      client.close();
    }
  }

  private void holdOnce(LockClient client, LockOptions options) throws IOException, InterruptedException {
    boolean shared = primitive == Primitive.SEMAPHORE
        || primitive == Primitive.READ_WRITE && ThreadLocalRandom.current().nextInt(WRITERS_ONE_IN) != 0;
    history.record(Kind.ASK, 0, shared ? History.SHARED : History.EXCLUSIVE);
    Lease lease = acquire(client, options, shared);
    long token = lease.fencingToken();
    history.record(Kind.GRANT, token, lease.ownerId());
    lease.onLost(reason -> history.record(Kind.LOST, token, String.valueOf(reason)));
    System.out.println("HELD " + token);
    try {
      if (primitive == Primitive.SEMAPHORE) {
        work.pause();
      } else if (shared) {
        work.readAndPause(token);
      } else {
        work.readPauseWrite(token);
      }
    } finally {
      history.record(Kind.RELEASE, token, "-");
      System.out.println("FREE");
      try {
        lease.close();
      } catch (LockException e) {
        history.record(Kind.ERROR, token, "release: " + e);
      }
    }
  }

  private Lease acquire(LockClient client, LockOptions options, boolean shared) throws InterruptedException {
    return switch (primitive) {
      case LOCK -> client.lock(key, options).acquire();
      case LINGER -> client.lock(key, options.toBuilder().linger(Primitive.LINGER_FOR).build()).acquire();
      case READ_WRITE -> {
        DistributedReadWriteLock lock = client.readWriteLock(key, options);
        yield (shared ? lock.readLock() : lock.writeLock()).acquire();
      }
      case SEMAPHORE -> client.semaphore(key, permits, options).acquire();
      case LEADERSHIP -> throw new IllegalStateException("A leader is elected, not acquired: see LeaderCandidate.");
      case MULTI_LOCK -> throw new IllegalStateException("A multi-lock's keys are chosen per hold: see MultiLockHolder.");
    };
  }

  private void stopAtEndOfInput() {
    try {
      System.in.transferTo(OutputStream.nullOutputStream());
    } catch (IOException e) {
      // An unreadable input counts as ended: the torture is over or gone.
    }
    stopping = true;
  }
}
