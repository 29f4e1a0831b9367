package dev.baton.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.LockHolder;
import dev.baton.spi.AcquireRequest;
import dev.baton.spi.Attempt;
import dev.baton.spi.Grant;
import dev.baton.spi.LockBackend;
import dev.baton.spi.Outcome;
import dev.baton.spi.QueueRule;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One acquisition through a backend's SPI, driven as the engine drives it but one step at a time: a try, and another
 * try on each wake-up, which it counts.
 */
final class SpiAcquisition {
  private static final Duration TTL = Duration.ofSeconds(30);
  private static final Duration PROMPTLY = Duration.ofSeconds(10);
  /** How many times in a row a try may ask to be made again at once before it counts as waiting. */
  private static final int IMMEDIATE_RETRIES = 10;

  private final LockBackend backend;
  private final String ownerId;
  private final Attempt attempt;
  /** Wake-ups not tried on yet. */
  private final AtomicInteger pending = new AtomicInteger();
  private final AtomicInteger wakeUps = new AtomicInteger();
  private Grant grant;

  private SpiAcquisition(LockBackend backend, AcquireRequest request) {
    this.backend = backend;
    this.ownerId = request.ownerId();
    this.attempt = backend.newAttempt(request);
  }

  /** Starts an acquisition of {@code key} that may wait, and makes its first try. */
  static SpiAcquisition start(LockBackend backend, String key, String ownerId, QueueRule rule, boolean fair) {
    AcquireRequest request = new AcquireRequest(key, ownerId, rule, TTL, null, fair, true,
        new LockHolder("test-host", ProcessHandle.current().pid(), "test", Instant.now()));
    SpiAcquisition acquisition = new SpiAcquisition(backend, request);
    acquisition.tryOnce();
    return acquisition;
  }

  /** A try (with the immediate retries it asks for): the grant, or null with the attempt waiting. */
  Grant tryOnce() {
    for (int i = 0; grant == null && i < IMMEDIATE_RETRIES; i++) {
      Outcome outcome = attempt.tryAcquire(() -> {
        wakeUps.incrementAndGet();
        pending.incrementAndGet();
      });
      if (outcome.isGranted()) {
        grant = outcome.grant();
        attempt.stopWaiting();
      } else if (!outcome.retryAfter().isZero()) {
        return null;
      }
    }
    return grant;
  }

  /** The grant, which the first try must have had. */
  Grant granted() {
    assertThat(grant).as("granted").isNotNull();
    return grant;
  }

  /** Waits for a wake-up, then tries: the grant, or null with the attempt waiting again. */
  Grant tryWhenWoken() {
    await().atMost(PROMPTLY).pollInterval(Duration.ofMillis(5)).until(() -> pending.get() > 0);
    pending.set(0);
    return tryOnce();
  }

  /** Tries on each wake-up until granted. */
  Grant awaitGrant() {
    await().atMost(PROMPTLY).pollInterval(Duration.ofMillis(5)).until(() -> {
      if (pending.get() == 0) {
        return false;
      }
      pending.set(0);
      return tryOnce() != null;
    });
    return grant;
  }

  String ownerId() {
    return ownerId;
  }

  /** How many wake-ups its watches have delivered in all. */
  int wakeUps() {
    return wakeUps.get();
  }

  void release() {
    assertThat(backend.release(granted())).as("released").isTrue();
  }

  void abandon() {
    attempt.abandon();
  }
}
