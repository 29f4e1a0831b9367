package dev.baton.engine;

import dev.baton.BackendUnavailableException;
import dev.baton.spi.AcquireRequest;
import dev.baton.spi.ChainEnd;
import dev.baton.spi.LockBackend;

/**
 * Hands a held entry at the store from a releasing thread to the next waiting thread of the same client, without
 * a round trip: the successor is a new lease on the same grant, with the same fencing token. Only exclusive
 * entries without a hold timeout are handed over ({@link HandoverTerms}), and only while the entry has more than a
 * third of its ttl of validity left. Permits are not: see {@link Engine}.
 *
 * <p>Chains are bounded, so that other processes get their turn: after {@link #maxInARow} hand-overs in a row the
 * store keeps the entry for the next waiter only if no other client waits for it
 * ({@link LockBackend#keepUnlessOthersWait}), and releases it otherwise.
 */
final class LocalHandovers {
  /**
   * How many times in a row a fair lock may change hands between the threads of one client. A fair lock's waiters
   * in other processes go first once the chain ends (ZooKeeper's fair lock and etcd queue them in order, Redis's
   * fair lock yields them the turn). On two cores a hand-over between threads costs about 20 µs of wake-up, a cycle
   * at the store one or two round trips: 64 turns per cycle keep a hot key near the local limit, while another
   * process waits at most 64 critical sections longer than its fair turn.
   */
  private static final int MAX_IN_A_ROW = 64;

  /**
   * The same bound for a non-fair lock, whose waiters race for it when it is free: the process that just released
   * is the first to try again, so its chains are kept shorter, to leave the other processes their share.
   */
  private static final int MAX_IN_A_ROW_WHEN_RACING = 16;

  private final Engine engine;
  private final LockBackend backend;

  LocalHandovers(Engine engine, LockBackend backend) {
    this.engine = engine;
    this.backend = backend;
  }

  /** Offers the entry {@code leaving} holds to the next local waiter, if there is one and the terms allow. */
  Handover offer(EngineLease leaving) {
    if (engine.isClosed() || !leaving.queue().hasWaiter()) {
      return Handover.NONE;
    }
    AcquireRequest request = leaving.grant().request();
    if (!leaving.mayBeHandedOver(request.ttl().toNanos() / 3)) {
      return Handover.NONE;
    }
    EngineLease successor;
    if (leaving.handovers() < maxInARow(request.fair())) {
      successor = leaving.successor();
    } else {
      long sentAt = engine.time().now();
      ChainEnd end;
      try {
        end = backend.keepUnlessOthersWait(leaving.grant(), request.ttl());
      } catch (BackendUnavailableException e) {
        return Handover.NONE;
      }
      if (end != ChainEnd.KEPT) {
        return end == ChainEnd.RELEASED ? Handover.RELEASED : Handover.GONE;
      }
      successor = leaving.successorKeptAt(sentAt);
    }
    engine.startHolding(successor);
    if (leaving.queue().handOver(leaving.terms(), successor)) {
      return Handover.HANDED_OVER;
    }
    engine.stopHolding(successor);
    return Handover.NONE;
  }

  private static int maxInARow(boolean fair) {
    return fair ? MAX_IN_A_ROW : MAX_IN_A_ROW_WHEN_RACING;
  }
}
