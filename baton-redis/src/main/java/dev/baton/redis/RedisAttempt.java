package dev.baton.redis;

import dev.baton.spi.AcquireRequest;
import dev.baton.spi.Attempt;
import dev.baton.spi.Outcome;
import dev.baton.spi.QueueRule;
import dev.baton.spi.WakeUp;
import java.time.Duration;
import java.util.List;

/**
 * One acquisition in Redis, under its request's rule. The first try is the acquire script alone (one round trip
 * when the entry may hold at once). If it may not and the caller waits, the attempt subscribes to the key's channel
 * and tries again at once, this time asking to be woken, so that the holders' release (or the grant of the writers
 * ahead of it) publishes a wake-up; after that it waits for the wake-up or, at the latest, for the time the script
 * named. The subscription lasts as long as the wait: {@link #stopWaiting()} (granted) and {@link #abandon()} (every
 * other end) unsubscribe, so that the client keeps no channel of a key it no longer waits for.
 *
 * <p>The attempt keeps the server time of its first try, its arrival, which the script compares with the waiting
 * writers' (see acquire.lua); an exclusive attempt that waits, fair or not, is such a writer, and withdraws its
 * record when it gives up.
 */
final class RedisAttempt implements Attempt {
  private final AttemptStore redis;
  private final AcquireRequest request;
  private final boolean writer;
  private WakeUpChannels.Subscription subscription;
  private boolean uncertain;
  /** A try of this writer was sent, which may have recorded it as waiting, whatever its reply said. */
  private boolean mayBeRecorded;
  private long arrival;

  RedisAttempt(AttemptStore redis, AcquireRequest request) {
    this.redis = redis;
    this.request = request;
    this.writer = redis.recordsWaitingWriter(request);
  }

  @Override
  public Outcome tryAcquire(WakeUp wakeUp) {
    List<Object> reply;
    boolean recordedBefore = mayBeRecorded;
    mayBeRecorded = writer;
    try {
      reply = redis.acquire(request, subscription != null, arrival, recordedBefore);
      uncertain = false;
    } catch (ReplicasBehindException e) {
      // Granted at the master but not on enough replicas: a failover now could give the lock to another client while
      // this one believes it holds, so the grant does not count. Given back at once; the engine tries again.
      uncertain = true;
      mayBeRecorded = false;
      redis.release(request);
      uncertain = false;
      throw e;
    } catch (RuntimeException e) {
      // The script may have run although its reply was lost: abandon() must delete what may be ours.
      uncertain = true;
      throw e;
    }
    if (AttemptStore.granted(reply)) {
      mayBeRecorded = false; // the script removed the record with the grant
      return Outcome.granted(new RedisGrant(request, (Long) reply.get(1)));
    }
    if ((Long) reply.get(0) == 2L) {
      request.rule().checkSamePermits(request.key(), QueueRule.permits(((Long) reply.get(1)).intValue()));
    }
    long waitMillis = (Long) reply.get(1);
    arrival = (Long) reply.get(2);
    if (request.mayWait() && subscription == null) {
      subscription = redis.subscribe(request.key(), wakeUp);
      return Outcome.retryNow();
    }
    return Outcome.waitAtMost(Duration.ofMillis(waitMillis + 1));
  }

  /** The grant is taken over: the wait, and with it the subscription, is over; the granted entry stays. */
  @Override
  public void stopWaiting() {
    if (subscription != null) {
      subscription.close();
      subscription = null;
    }
  }

  /**
   * Unsubscribes, waiting for the server to confirm so that it no longer counts this client among the key's waiters;
   * withdraws the attempt's waiting-writer record; deletes the entry a try whose reply was lost may have written.
   */
  @Override
  public void abandon() {
    if (subscription != null) {
      subscription.closeAndConfirm();
      subscription = null;
    }
    if (mayBeRecorded) {
      redis.withdraw(request);
      mayBeRecorded = false;
    }
    if (uncertain) {
      redis.release(request);
      uncertain = false;
    }
  }
}
