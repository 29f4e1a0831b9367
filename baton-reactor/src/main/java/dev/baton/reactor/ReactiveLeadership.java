package dev.baton.reactor;

import dev.baton.Leader;
import dev.baton.LeaderWatch;
import dev.baton.Leadership;
import dev.baton.LeadershipListener;
import dev.baton.Lease;
import dev.baton.LockClient;
import dev.baton.LockOptions;
import dev.baton.LostReason;
import java.util.Optional;
import java.util.function.Function;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.FluxSink;
import reactor.core.scheduler.Schedulers;

/**
 * Leadership as Reactor publishers. A {@link Leadership} is a candidacy that stands until closed and may be elected
 * many times, so its publisher is a {@link Flux} of its terms, not a {@link reactor.core.publisher.Mono}: each
 * subscription is a candidacy of its own, started on subscription and closed (resigning, on
 * {@link Schedulers#boundedElastic()}) when the subscription is cancelled.
 *
 * <pre>{@code
 * Flux<Report> reports = ReactiveLeadership.whileLeading(client, "nightly-report",
 *     term -> reportJob.run(term.fencingToken()));
 * }</pre>
 *
 * <p>Operators that cancel after some elements ({@code next()}, {@code take(1)}) cancel the candidacy too, and so
 * resign the term they emitted: to lead for a while, keep the subscription and cancel it to resign.
 */
public final class ReactiveLeadership {
  private ReactiveLeadership() {}

  /**
   * Stands for the leadership named {@code key} on subscription, with the client's default options, and emits each
   * term it is elected to, on the client's event thread. A term ends as its lease does ({@link ReactiveLeases#lost}
   * tells when); the candidate then stands again and the next election emits again. Never completes; cancel to resign.
   *
   * @throws IllegalArgumentException if {@code client} is null
   */
  public static Flux<Lease> terms(LockClient client, String key) {
    checkClient(client);
    return terms(client, key, client.defaultOptions());
  }

  /**
   * As {@link #terms(LockClient, String)}, with terms held with {@code options} (their wait time is ignored: a
   * candidate waits until elected).
   *
   * @throws IllegalArgumentException if {@code client} or {@code options} is null; a key the store does not accept
   *     is the Flux's error
   */
  public static Flux<Lease> terms(LockClient client, String key, LockOptions options) {
    checkClient(client);
    if (options == null) {
      throw new IllegalArgumentException("The options of leadership '" + key + "' must not be null; use "
          + "client.defaultOptions() or LockOptions.defaults().");
    }
    return Flux.create(sink -> stand(sink, client.leadership(key, options)));
  }

  /**
   * Stands for the leadership named {@code key} on subscription, with the client's default options, and runs the
   * publisher that {@code body} makes of each term while it lasts: when the term is lost the body is cancelled, and
   * the next term runs it again. A body that completes leaves the candidate leading until the subscription is
   * cancelled; an error of the body ends the Flux and resigns.
   *
   * @throws IllegalArgumentException if {@code client} or {@code body} is null
   */
  public static <T> Flux<T> whileLeading(LockClient client, String key,
      Function<? super Lease, ? extends Publisher<? extends T>> body) {
    if (body == null) {
      throw new IllegalArgumentException("The body of leadership '" + key + "' must not be null: pass a function of "
          + "the term to the publisher to run while leading.");
    }
    return terms(client, key).switchMap(term -> Flux.<T>from(body.apply(term)).takeUntilOther(ReactiveLeases.lost(term)));
  }

  /**
   * Who leads the leadership named {@code key}, without standing: on subscription a watch
   * ({@link LockClient#watchLeadership}) emits the leader (or empty: nobody leads) once read, then each change, on
   * the client's event thread. Never completes; cancelling closes the watch.
   *
   * @throws IllegalArgumentException if {@code client} is null; a key the store does not accept is the Flux's error
   */
  public static Flux<Optional<Leader>> leaders(LockClient client, String key) {
    checkClient(client);
    return Flux.create(sink -> {
      LeaderWatch watch = client.watchLeadership(key, sink::next);
      sink.onDispose(watch::close);
    });
  }

  private static void stand(FluxSink<Lease> sink, Leadership candidacy) {
    sink.onDispose(() -> Schedulers.boundedElastic().schedule(candidacy::close));
    candidacy.addListener(new LeadershipListener() {
      @Override
      public void elected(Lease term) {
        sink.next(term);
      }

      @Override
      public void revoked(LostReason reason) {
        // The term's lease tells its own loss; the candidate stands again by itself.
      }
    });
    candidacy.start();
  }

  private static void checkClient(LockClient client) {
    if (client == null) {
      throw new IllegalArgumentException("The client must not be null: pass the application's LockClient.");
    }
  }
}
