package dev.baton.torture;

import dev.baton.Leadership;
import dev.baton.LeadershipListener;
import dev.baton.Lease;
import dev.baton.LockClient;
import dev.baton.LostReason;
import dev.baton.torture.History.Kind;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * One candidacy of a torture worker: it stands for leadership and, while it leads, updates the register with its
 * term's token, read-pause-write after read-pause-write, then resigns after a few, so that elections follow one
 * another between the faults too. Its history shows a term as {@code GRANT} (elected) to {@code RELEASE}. A
 * revocation records {@code LOST} and {@code RELEASE} at once, on the event thread that tells it, since the
 * candidate stops leading there (a write under way is left to the register's fence), and {@code ASK}: the
 * candidacy stands again.
 */
final class LeaderCandidate implements LeadershipListener {
  /** How long the leading thread waits for an election before it looks whether the worker is stopping. */
  private static final Duration STOP_CHECK = Duration.ofMillis(100);
  /** The most read-pause-writes a leader makes before it resigns. */
  private static final int MOST_WRITES_PER_CANDIDACY = 4;

  private final WorkerHistory history;
  private final HeldWork work;
  private final BlockingQueue<Lease> elections = new LinkedBlockingQueue<>();
  /** The term it leads in; null when it does not lead. Guarded by this. */
  private Lease term;
  /** Set once it resigns. Guarded by this. */
  private boolean resigning;

  LeaderCandidate(WorkerHistory history, HeldWork work) {
    this.history = history;
    this.work = work;
  }

  /**
   * Stands for {@code key} with terms of {@code ttl}, leads for a few read-pause-writes (in one term or more, if it
   * is revoked and elected again) and resigns; or resigns when {@code stopping}.
   */
  void stand(LockClient client, String key, Duration ttl, BooleanSupplier stopping)
      throws IOException, InterruptedException {
    Leadership leadership = client.leadership(key, client.defaultOptions().withTtl(ttl));
    leadership.addListener(this);
    history.record(Kind.ASK, 0, History.EXCLUSIVE);
    leadership.start();
    try {
      int writes = ThreadLocalRandom.current().nextInt(1, MOST_WRITES_PER_CANDIDACY + 1);
      while (writes > 0 && !stopping.getAsBoolean()) {
        Lease elected = elections.poll(STOP_CHECK.toMillis(), TimeUnit.MILLISECONDS);
        for (; elected != null && writes > 0 && leadsIn(elected) && !stopping.getAsBoolean(); writes--) {
          work.readPauseWrite(elected.fencingToken());
        }
      }
    } finally {
      Lease resigned = resign();
      if (resigned != null) {
        history.record(Kind.RELEASE, resigned.fencingToken(), "resigned");
        System.out.println("FREE");
      }
      leadership.close();
    }
  }

  @Override
  public void elected(Lease elected) {
    synchronized (this) {
      if (resigning) {
        return; // elected while it resigns: the term does no work and ends with the resignation, unrecorded
      }
      term = elected;
    }
    history.record(Kind.GRANT, elected.fencingToken(), elected.ownerId());
    System.out.println("HELD " + elected.fencingToken());
    elections.add(elected);
  }

  @Override
  public void revoked(LostReason reason) {
    Lease revoked = endTerm();
    if (revoked != null) {
      history.record(Kind.LOST, revoked.fencingToken(), reason.toString());
      history.record(Kind.RELEASE, revoked.fencingToken(), "revoked");
      System.out.println("FREE");
    }
    history.record(Kind.ASK, 0, History.EXCLUSIVE); // the candidacy stands again once its listeners are told
  }

  private synchronized boolean leadsIn(Lease elected) {
    return term == elected;
  }

  private synchronized Lease resign() {
    resigning = true;
    return endTerm();
  }

  private synchronized Lease endTerm() {
    Lease ended = term;
    term = null;
    return ended;
  }
}
