package dev.baton.micrometer;

import dev.baton.LockClient;
import dev.baton.LockObserver;
import dev.baton.Lease;
import dev.baton.LostReason;
import dev.baton.Primitive;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Meters of one {@link LockClient}, every one tagged {@code backend}, all but the gauge {@code primitive} as well
 * ({@code lock}, {@code read_lock}, {@code write_lock}, {@code semaphore}, {@code leadership}, whose acquires wait
 * for as long as the candidate stands, or {@code multi_lock}: each key of a multi-lock is metered as an acquire and a
 * hold of its own), and {@code key} when asked for:
 *
 * <ul>
 *   <li>{@code baton.lock.acquire} (timer): how long acquires waited, tagged {@code outcome}: {@code acquired},
 *       {@code timed_out} (the wait time passed, or a try found the lock taken) or {@code failed}; its count per
 *       outcome is the outcome counter.
 *   <li>{@code baton.lock.held} (gauge): how many locks the client holds now.
 *   <li>{@code baton.lock.hold} (timer): how long locks were held, tagged {@code ended}: {@code released} or
 *       the lost reason in lower case ({@code hold_timeout}, {@code entry_removed}, ...).
 *   <li>{@code baton.lock.lost} (counter): locks that ended other than by their holder's release, tagged
 *       {@code reason}.
 *   <li>{@code baton.lock.renewals} (counter): renewals by the watchdog, tagged {@code result}: {@code succeeded}
 *       or {@code failed}.
 * </ul>
 *
 * <pre>{@code
 * BatonMetrics.bind(client, registry);
 * }</pre>
 *
 * <p>Bind before the client takes locks, so that the held gauge counts them all. A {@code key} tag gives one time
 * series per key: use it only when keys are few.
 */
public final class BatonMetrics implements LockObserver {
  private final MeterRegistry registry;
  private final Tags tags;
  private final boolean keyTag;
  private final AtomicInteger held = new AtomicInteger();

  private BatonMetrics(MeterRegistry registry, Tags tags, boolean keyTag) {
    this.registry = registry;
    this.tags = tags;
    this.keyTag = keyTag;
  }

  /** Meters {@code client} in {@code registry}, without key tags. */
  public static BatonMetrics bind(LockClient client, MeterRegistry registry) {
    return bind(client, registry, false);
  }

  /**
   * Meters {@code client} in {@code registry}.
   *
   * @param keyTag whether to tag meters with the lock's key as well
   * @throws IllegalArgumentException if the client or the registry is null
   */
  public static BatonMetrics bind(LockClient client, MeterRegistry registry, boolean keyTag) {
    if (client == null || registry == null) {
      throw new IllegalArgumentException("BatonMetrics needs a LockClient and a MeterRegistry, but got " + client
          + " and " + registry + ".");
    }
    BatonMetrics metrics = new BatonMetrics(registry, Tags.of("backend", client.backendName()), keyTag);
    Gauge.builder("baton.lock.held", metrics.held, AtomicInteger::get).tags(metrics.tags)
        .description("Locks the client holds now").register(registry);
    client.observe(metrics);
    return metrics;
  }

  @Override
  public void acquired(Lease lease, Primitive primitive, Duration waited) {
    held.incrementAndGet();
    acquireTimer(lease.key(), primitive, "acquired").record(waited);
  }

  @Override
  public void timedOut(String key, Primitive primitive, Duration waited) {
    acquireTimer(key, primitive, "timed_out").record(waited);
  }

  @Override
  public void failed(String key, Primitive primitive, Duration waited, Throwable error) {
    acquireTimer(key, primitive, "failed").record(waited);
  }

  @Override
  public void ended(Lease lease, Primitive primitive, Duration heldFor, LostReason reason) {
    held.decrementAndGet();
    String ended = reason == null ? "released" : reason.name().toLowerCase(Locale.ROOT);
    Timer.builder("baton.lock.hold").tags(tags(lease.key(), primitive)).tag("ended", ended)
        .description("How long locks were held").register(registry).record(heldFor);
    if (reason != null) {
      Counter.builder("baton.lock.lost").tags(tags(lease.key(), primitive)).tag("reason", ended)
          .description("Locks that ended other than by their holder's release").register(registry).increment();
    }
  }

  @Override
  public void renewed(Lease lease, Primitive primitive, boolean succeeded) {
    Counter.builder("baton.lock.renewals").tags(tags(lease.key(), primitive))
        .tag("result", succeeded ? "succeeded" : "failed")
        .description("Renewals of held locks by the watchdog").register(registry).increment();
  }

  private Timer acquireTimer(String key, Primitive primitive, String outcome) {
    return Timer.builder("baton.lock.acquire").tags(tags(key, primitive)).tag("outcome", outcome)
        .description("How long acquires waited, by outcome").register(registry);
  }

  private Tags tags(String key, Primitive primitive) {
    Tags withPrimitive = tags.and("primitive", primitive.name().toLowerCase(Locale.ROOT));
    return keyTag ? withPrimitive.and("key", key) : withPrimitive;
  }

  @Override
  public String toString() {
    return "BatonMetrics" + tags;
  }
}
