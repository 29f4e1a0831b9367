package dev.baton.testkit;

import static org.awaitility.Awaitility.await;

import dev.baton.Lease;
import dev.baton.LockClient;
import dev.baton.LockOptions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * A client that holds some keys and waits on others until it is killed, to test what a crashed client leaves at the
 * store: one round of {@link LockClientSoak}'s crashed clients. Started by the soak through {@link ForkedMain}.
 *
 * <p>Arguments: {@code <factoryClassName> <target> <round> <keysPerKind> <ttlMillis>}. For each {@link CrashedEntry}
 * kind, takes {@code keysPerKind} keys of the round with that ttl (the watchdog renews what it holds): first the keys
 * it holds, then the waits, without a wait limit; one after another, each within 60 s (a wait once the store shows
 * it). Prints {@code READY} once every wait is at the store, then blocks. On failure prints {@code ERROR <message>}
 * and exits with status 1. It also exits when its standard input ends, which happens when the parent JVM dies.
 */
public final class CrashingClientMain {
  /** The line printed once every key it holds is held and every wait is at the store. */
  public static final String READY = "READY";

  private static final Duration HELD_WITHIN = Duration.ofSeconds(60);

  private CrashingClientMain() {}

  /** Takes the keys; see the class comment for the arguments. */
  public static void main(String[] args) {
    LockHolderMain.serve(() -> take(args), taken -> READY);
  }

  /** Every lease and pending acquisition, which must stay reachable until the process is killed. */
  private static List<Object> take(String[] args) throws Exception {
    if (args.length != 5) {
      throw new IllegalArgumentException("Expected <factoryClassName> <target> <round> <keysPerKind> <ttlMillis> but"
          + " got " + args.length + " arguments.");
    }
    LockClient client = LockHolderMain.connect(args[0], args[1]);
    String round = args[2];
    int keysPerKind = Integer.parseInt(args[3]);
    LockOptions options = client.defaultOptions().withTtl(Duration.ofMillis(Long.parseLong(args[4])));
    List<Object> taken = new ArrayList<>();
    for (CrashedEntry kind : CrashedEntry.values()) {
      for (int i = 0; i < keysPerKind; i++) {
        taken.addAll(kind.hold(client, kind.key(round, i), options.withWaitTime(HELD_WITHIN)));
      }
    }
    for (CrashedEntry kind : CrashedEntry.values()) {
      for (int i = 0; i < keysPerKind; i++) {
        String key = kind.key(round, i);
        List<CompletableFuture<Lease>> waits = kind.waitFor(client, key, options.withWaitTime(null));
        if (!waits.isEmpty()) {
          // One wait after another: hundreds of first tries at once would open as many PostgreSQL connections.
          await("the wait on '" + key + "' at the store").atMost(HELD_WITHIN)
              .until(() -> client.status(key).waiters() > 0);
        }
        taken.addAll(waits);
      }
    }
    return taken;
  }
}
