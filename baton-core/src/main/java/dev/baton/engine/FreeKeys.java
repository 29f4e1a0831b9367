package dev.baton.engine;

import dev.baton.BackendUnavailableException;
import dev.baton.LockHolder.MultiLock;
import dev.baton.LockOptions;
import dev.baton.Primitive;
import dev.baton.spi.AcquireRequest;
import dev.baton.spi.Grant;
import dev.baton.spi.QueueRule;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A multi-lock's next keys taken in one request, where the store can ({@link dev.baton.spi.LockBackend#acquireInOrder}):
 * the keys, from the next one on, whose local turn is free in this client (no thread has or waits for it, and no entry
 * of the key lingers), each turn taken without waiting, then one try of each at the store, in order, which stops at
 * the first key the store cannot grant at once. The keys granted get their leases as {@link Engine#acquire} would
 * give them (an entry each, keeping the key's turn, renewed by the watchdog); the others' turns are given back, and
 * the caller takes the next key by the path that waits. Every multi-lock still holds a prefix of its keys, in the one
 * global order, while it waits for the next, so no cycle of waits forms; and the entries are the keys' ordinary
 * exclusive entries, which single locks of the keys queue for too.
 */
final class FreeKeys {
  private static final Logger log = LoggerFactory.getLogger(FreeKeys.class);

  /** A key whose local turn was taken for the request: its name, its local queue's name and the queue. */
  private record Free(String key, String localKey, LocalQueue queue) {}

  private FreeKeys() {}

  /**
   * The leases of the first of {@code keys} taken in one request, in order; empty if the store cannot take several in
   * one request, fewer than two of the keys are free in this client, or the store could not be reached (then the
   * caller's acquire of the next key waits and retries as any does).
   *
   * @param keys the keys left to take, in the multi-lock's order
   * @throws IllegalStateException if the client closed
   */
  static List<EngineLease> acquire(Engine engine, List<String> keys, Primitive primitive, LockOptions options,
      Optional<MultiLock> multiLock) {
    if (keys.size() < 2 || !engine.backend().acquiresInOrder()) {
      return List.of();
    }
    List<Free> free = takeTurns(engine, keys, options);
    if (free.size() < 2) {
      giveBack(engine, free, 0);
      return List.of();
    }
    List<AcquireRequest> requests = new ArrayList<>(free.size());
    for (Free each : free) {
      requests.add(engine.newRequest(each.key(), QueueRule.EXCLUSIVE, options, multiLock, false));
    }
    long sentAt = engine.time().now();
    List<Grant> grants;
    try {
      grants = engine.backend().acquireInOrder(requests);
    } catch (BackendUnavailableException e) {
      log.debug("Taking {} in one request failed; taking them one by one", keys, e);
      giveBack(engine, free, 0);
      return List.of();
    } catch (RuntimeException | Error e) {
      giveBack(engine, free, 0);
      throw e;
    }
    if (engine.time().now() - sentAt >= requests.get(0).entryTtl().toNanos()) {
      // Granted after their own expiry (this process was paused): the store may have given the keys to others since.
      grants.forEach(late -> engine.cleanup().run("release of " + late.request().lockName() + ", granted after its ttl",
          () -> engine.backend().release(late)));
      giveBack(engine, free, 0);
      return List.of();
    }
    return leases(engine, free, grants, primitive, sentAt);
  }

  /**
   * Takes the local turns of the first keys that are free here, without waiting; stops at the first that is not, or
   * that lingers (its entry is taken again by the path that waits, without a request).
   */
  private static List<Free> takeTurns(Engine engine, List<String> keys, LockOptions options) {
    List<Free> free = new ArrayList<>(keys.size());
    try {
      for (String key : keys) {
        String localKey = Engine.localKey(key, QueueRule.EXCLUSIVE);
        if (engine.keys().inUse(localKey)) {
          break;
        }
        engine.backend().checkAcquisition(key, QueueRule.EXCLUSIVE, options.fair());
        LocalQueue queue = engine.keys().retain(localKey, 1);
        if (!tryEnter(engine, localKey, queue)) {
          break;
        }
        if (engine.isLingering(localKey)) {
          queue.leave();
          engine.keys().release(localKey);
          break;
        }
        free.add(new Free(key, localKey, queue));
      }
    } catch (RuntimeException | Error e) {
      giveBack(engine, free, 0);
      throw e;
    }
    return free;
  }

  /**
   * Takes the turn of {@code queue}, retained for {@code localKey}, if it is free: true; if not, or if it fails (the
   * client closed since the queue was retained), lets go of the key again.
   */
  private static boolean tryEnter(Engine engine, String localKey, LocalQueue queue) {
    boolean entered = false;
    try {
      entered = queue.tryEnter();
      return entered;
    } finally {
      if (!entered) {
        engine.keys().release(localKey);
      }
    }
  }

  /**
   * The leases of the keys granted, the first {@code grants.size()} of {@code free}, made as the path that waits makes
   * them; the other keys' turns given back. If the client closed meanwhile, the leases made are released, the grants
   * not yet held given back at the store, and the turns left.
   */
  private static List<EngineLease> leases(Engine engine, List<Free> free, List<Grant> grants, Primitive primitive,
      long sentAt) {
    List<EngineLease> leases = new ArrayList<>(grants.size());
    int next = 0;
    try {
      for (; next < grants.size(); next++) {
        Free each = free.get(next);
        leases.add(engine.hold(grants.get(next), each.localKey(), each.queue(), sentAt, 0));
      }
    } catch (RuntimeException | Error e) {
      for (EngineLease made : leases) {
        try {
          made.release();
        } catch (RuntimeException refused) {
          e.addSuppressed(refused);
        }
      }
      for (Grant notHeld : grants.subList(next + 1, grants.size())) {
        engine.cleanup().run("release of " + notHeld.request().lockName() + ", granted while closing",
            () -> engine.backend().release(notHeld));
      }
      giveBack(engine, free, next);
      throw e;
    }
    giveBack(engine, free, grants.size());
    for (EngineLease lease : leases) {
      lease.observeAs(primitive);
      engine.observers().acquiring(lease.key(), primitive);
      engine.observers().acquired(lease, primitive, sentAt);
    }
    return leases;
  }

  /** Leaves the local turns of {@code free} from {@code from} on, and lets go of their keys. */
  private static void giveBack(Engine engine, List<Free> free, int from) {
    for (Free each : free.subList(from, free.size())) {
      each.queue().leave();
      engine.keys().release(each.localKey());
    }
  }
}
