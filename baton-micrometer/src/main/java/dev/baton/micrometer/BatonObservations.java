package dev.baton.micrometer;

import dev.baton.Lease;
import dev.baton.LockClient;
import dev.baton.LockLostException;
import dev.baton.LockObserver;
import dev.baton.LockTimeoutException;
import dev.baton.LostReason;
import dev.baton.Primitive;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The waits and holds of one {@link LockClient} as Micrometer observations, so that with a tracer (Spring Boot 3
 * with Micrometer Tracing) a lock wait shows as a span in the application's traces:
 *
 * <ul>
 *   <li>{@code baton.lock.acquire}: from the start of an acquire to its outcome, on the acquiring thread, so that
 *       it is a child of the caller's span; tagged {@code backend}, {@code primitive} (as {@link BatonMetrics} tags
 *       it) and {@code outcome} ({@code acquired}, {@code timed_out} or {@code failed}, the failure its error), and,
 *       as a high-cardinality value, {@code key}.
 *   <li>{@code baton.lock.hold}: from the grant to the end of the hold, tagged {@code backend}, {@code primitive} and
 *       {@code ended} ({@code released} or the lost reason in lower case; a lock lost while held is the observation's error), and
 *       {@code key}. Its end is told on the client's event thread, a moment after the release.
 * </ul>
 *
 * <pre>{@code
 * BatonObservations.bind(client, observationRegistry);
 * }</pre>
 *
 * <p>An {@code acquireAsync} has no thread that waits for it: its {@code baton.lock.acquire} starts and stops at its
 * outcome, on the client's thread that completes it, which carries no scope of the caller's (the wait it took is in
 * {@link BatonMetrics}' timer).
 * Bind before the client takes locks: a hold that began before is not observed.
 */
public final class BatonObservations implements LockObserver {
  private final ObservationRegistry registry;
  private final String backend;
  /** The acquire each thread has under way: an acquire begins and ends on one thread, and never nests. */
  private final ThreadLocal<Observation> acquiring = new ThreadLocal<>();
  /**
   * The observation of each lease held: several leases of one key may be held at once (readers, permits) and end in
   * any order, and a lease handed over ends after its successor began.
   */
  private final ConcurrentHashMap<Lease, Observation> holds = new ConcurrentHashMap<>();

  private BatonObservations(ObservationRegistry registry, String backend) {
    this.registry = registry;
    this.backend = backend;
  }

  /**
   * Observes the waits and holds of {@code client} in {@code registry}.
   *
   * @throws IllegalArgumentException if the client or the registry is null
   */
  public static BatonObservations bind(LockClient client, ObservationRegistry registry) {
    if (client == null || registry == null) {
      throw new IllegalArgumentException("BatonObservations needs a LockClient and an ObservationRegistry, but got "
          + client + " and " + registry + ".");
    }
    BatonObservations observations = new BatonObservations(registry, client.backendName());
    client.observe(observations);
    return observations;
  }

  @Override
  public void acquiring(String key, Primitive primitive) {
    Observation observation = observation("baton.lock.acquire", key, primitive).contextualName("lock " + key).start();
    acquiring.set(observation);
  }

  @Override
  public void acquired(Lease lease, Primitive primitive, Duration waited) {
    endAcquire("acquired", null);
    holds.put(lease, observation("baton.lock.hold", lease.key(), primitive).contextualName("hold " + lease.key()).start());
  }

  @Override
  public void timedOut(String key, Primitive primitive, Duration waited) {
    endAcquire("timed_out", null);
  }

  @Override
  public void failed(String key, Primitive primitive, Duration waited, Throwable error) {
    endAcquire(error instanceof LockTimeoutException ? "timed_out" : "failed", error);
  }

  @Override
  public void ended(Lease lease, Primitive primitive, Duration heldFor, LostReason reason) {
    Observation ending = holds.remove(lease);
    if (ending != null) {
      ending.lowCardinalityKeyValue("ended", reason == null ? "released" : reason.name().toLowerCase(Locale.ROOT));
      if (reason != null && reason != LostReason.HOLD_TIMEOUT && reason != LostReason.CLIENT_CLOSED) {
        ending.error(new LockLostException("Lock '" + lease.key() + "' was lost while held: " + reason));
      }
      ending.stop();
    }
  }

  private Observation observation(String name, String key, Primitive primitive) {
    return Observation.createNotStarted(name, registry)
        .lowCardinalityKeyValue("backend", backend)
        .lowCardinalityKeyValue("primitive", primitive.name().toLowerCase(Locale.ROOT))
        .highCardinalityKeyValue("key", key);
  }

  private void endAcquire(String outcome, Throwable error) {
    Observation observation = acquiring.get();
    if (observation == null) {
      return; // bound while this acquire was under way
    }
    acquiring.remove();
    observation.lowCardinalityKeyValue("outcome", outcome);
    if (error != null) {
      observation.error(error);
    }
    observation.stop();
  }
}
