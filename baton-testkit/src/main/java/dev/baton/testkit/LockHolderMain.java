package dev.baton.testkit;

import dev.baton.Lease;
import dev.baton.LockClient;
import dev.baton.LockOptions;
import dev.baton.torture.LockClientFactory;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.ref.Reference;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.function.Function;

/**
 * A process that takes one lock and holds it until it is killed, to test what a crashed holder leaves
 * behind. Started by {@link ChildJvm}.
 *
 * <p>Arguments: {@code <factoryClassName> <target> <key> <ttlMillis>}. Acquires the key with that ttl and no
 * hold timeout (the watchdog renews it), prints {@code HELD <fencingToken>}, then blocks. On failure prints
 * {@code ERROR <message>} and exits with status 1. It also exits when its standard input ends, which happens
 * when the parent JVM dies, so that a holder never outlives the test run.
 */
public final class LockHolderMain {
  /** The first word of the line printed once the lock is held; the fencing token follows. */
  public static final String HELD = "HELD";
  /** The first word of the line printed when the lock could not be taken; the reason follows. */
  public static final String ERROR = "ERROR";

  private LockHolderMain() {}

  /** Takes the lock and holds it; see the class comment for the arguments. */
  public static void main(String[] args) {
    serve(() -> hold(args), lease -> HELD + " " + lease.fencingToken());
  }

  /**
   * The protocol of the test kit's child mains ({@link ForkedMain}): runs {@code take}, prints the answer {@code
   * answer} makes of what it took, keeps that reachable until the standard input ends, and exits. If {@code take}
   * fails, prints {@code ERROR <reason>} and the stack trace and exits with status 1.
   */
  static <T> void serve(Callable<T> take, Function<T, String> answer) {
    T taken;
    try {
      taken = take.call();
    } catch (Exception | LinkageError e) {
      System.out.println(ERROR + " " + e);
      System.out.flush();
      e.printStackTrace();
      System.exit(1);
      return;
    }
    System.out.println(answer.apply(taken));
    System.out.flush();
    awaitEndOfInput(System.in);
    Reference.reachabilityFence(taken);
    System.exit(0);
  }

  private static Lease hold(String[] args) throws ReflectiveOperationException, InterruptedException {
    if (args.length != 4) {
      throw new IllegalArgumentException(
          "Expected <factoryClassName> <target> <key> <ttlMillis> but got " + args.length + " arguments.");
    }
    LockClient client = connect(args[0], args[1]);
    LockOptions options = client.defaultOptions().withTtl(Duration.ofMillis(Long.parseLong(args[3])));
    return client.lock(args[2]).acquire(options);
  }

  /** A client made by the {@link LockClientFactory} named {@code factoryClassName}, connected to {@code target}. */
  static LockClient connect(String factoryClassName, String target) throws ReflectiveOperationException {
    return Class.forName(factoryClassName)
        .asSubclass(LockClientFactory.class)
        .getDeclaredConstructor()
        .newInstance()
        .connect(target);
  }

  private static void awaitEndOfInput(InputStream in) {
    try {
      in.transferTo(OutputStream.nullOutputStream());
    } catch (IOException e) {
      // An unreadable input counts as ended: the parent is gone.
    }
  }
}
