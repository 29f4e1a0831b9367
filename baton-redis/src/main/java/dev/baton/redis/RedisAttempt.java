package dev.baton.redis;

import dev.baton.spi.AcquireRequest;
import dev.baton.spi.Attempt;
import dev.baton.spi.Outcome;
import dev.baton.spi.WakeUp;
import java.time.Duration;
import java.util.List;

/**
 * One acquisition in Redis. The first try is the acquire script alone (one round trip when the lock
 * is free). If the lock is taken and the caller waits, the attempt subscribes to the key's channel and
 * tries again at once, this time marking the holding as waited on, so that the holder's release
 * publishes a wake-up; after that it waits for the wake-up or, at the latest, for the holder's entry to
 * expire. The subscription lasts as long as the wait: {@link #stopWaiting()} (granted) and {@link #abandon()}
 * (every other end) unsubscribe, so that the client keeps no channel of a key it no longer waits for.
 */
final class RedisAttempt implements Attempt {
  private final RedisBackend redis;
  private final AcquireRequest request;
  private WakeUpChannels.Subscription subscription;
  private boolean uncertain;

  RedisAttempt(RedisBackend redis, AcquireRequest request) {
    this.redis = redis;
    this.request = request;
  }

  @Override
  public Outcome tryAcquire(WakeUp wakeUp) {
    List<Object> reply;
    try {
      reply = redis.acquire(request, subscription != null);
      uncertain = false;
    } catch (RuntimeException e) {
      // The script may have run although its reply was lost: abandon() must delete what may be ours.
      uncertain = true;
      throw e;
    }
    if ((Long) reply.get(0) == 1L) {
      return Outcome.granted(new RedisGrant(request, (Long) reply.get(1)));
    }
    long holderTtlMillis = (Long) reply.get(1);
    if (request.mayWait() && subscription == null) {
      subscription = redis.subscribe(request.key(), wakeUp);
      return Outcome.retryNow();
    }
    // PTTL is -1 for an entry without expiry, which Baton never writes; wait one ttl then.
    long fallback = holderTtlMillis >= 0 ? holderTtlMillis + 1 : request.ttl().toMillis();
    return Outcome.waitAtMost(Duration.ofMillis(fallback));
  }

  /** The grant is taken over: the wait, and with it the subscription, is over; the granted entry stays. */
  @Override
  public void stopWaiting() {
    unsubscribe();
  }

  @Override
  public void abandon() {
    unsubscribe();
    if (uncertain) {
      redis.release(request);
      uncertain = false;
    }
  }

  private void unsubscribe() {
    if (subscription != null) {
      subscription.close();
      subscription = null;
    }
  }
}
