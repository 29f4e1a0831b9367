package dev.baton.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.Leader;
import dev.baton.LeaderWatch;
import dev.baton.Lease;
import dev.baton.Leadership;
import dev.baton.LeadershipListener;
import dev.baton.LockClient;
import dev.baton.LockOptions;
import dev.baton.LostReason;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * One leader at a time, terms that grow, losses told before anyone else is elected, and a resignation that hands
 * over at once. Part of the {@link LockClientContract}: it runs as a nested class of the backend's test.
 */
abstract class ContractLeadership extends ContractGroup {
  private final List<Leadership> candidacies = new ArrayList<>();

  ContractLeadership(LockClientContract contract) {
    super(contract);
  }

  @AfterEach
  void resignAll() {
    candidacies.forEach(Leadership::close);
  }

  @Test
  @Timeout(30)
  void oneLeaderAtATimeAndEveryElectionGrowsTheTerm() throws Exception {
    Recorder events = new Recorder();
    List<Leadership> candidates = new ArrayList<>();
    for (int c = 0; c < 3; c++) {
      candidates.add(stand(newClient(), events));
    }
    List<Long> terms = new ArrayList<>();
    for (int round = 0; round < 3; round++) {
      Lease term = events.nextElected();
      terms.add(term.fencingToken());
      Leadership leader = await().atMost(PROMPTLY).until(() -> leaders(candidates), l -> l.size() == 1).get(0);
      assertThat(leader.term()).contains(term);
      leader.close(); // resigns: the next is elected without waiting for a ttl
      candidates.remove(leader);
    }
    assertStrictlyIncreasing(terms);
    assertThat(events.revocations).as("resignations are not revocations").isEmpty();
    await().atMost(PROMPTLY).until(() -> entriesAtStore(key) == 0);
  }

  @Test
  @Timeout(30)
  void aResignationHandsOverWithoutWaitingForTheTtl() throws Exception {
    Recorder first = new Recorder();
    Recorder second = new Recorder();
    Leadership leader = stand(newClient(), first, baseOptions().withTtl(Duration.ofMinutes(5)));
    first.nextElected();
    stand(newClient(), second, baseOptions().withTtl(Duration.ofMinutes(5)));

    leader.close();

    assertThat(second.nextElected().isHeld()).isTrue();
    assertThat(leader.isLeader()).isFalse();
  }

  /** The crashed leader's term stops counting as held before the store elects the next, and the leader is told. */
  @Test
  @Timeout(30)
  void aCrashedLeaderIsRevokedBeforeTheNextIsElected() throws Exception {
    Recorder crashing = new Recorder();
    LockClient crashingClient = newCrashableClient();
    stand(crashingClient, crashing, waitingWithTtl(SHORT_TTL));
    Lease crashedTerm = crashing.nextElected();
    AtomicBoolean crashedHeldAtTheNextElection = new AtomicBoolean(true);
    Recorder next = new Recorder() {
      @Override
      public void elected(Lease term) {
        crashedHeldAtTheNextElection.set(crashedTerm.isHeld());
        super.elected(term);
      }
    };
    stand(newClient(), next, waitingWithTtl(SHORT_TTL));

    crash(crashingClient);

    assertThat(crashing.revocations.poll(LONG_WAIT.toMillis(), TimeUnit.MILLISECONDS))
        .isEqualTo(LostReason.RENEWAL_FAILED);
    Lease nextTerm = next.nextElected();
    assertThat(crashedHeldAtTheNextElection).as("the crashed term, held when the next was elected").isFalse();
    assertThat(nextTerm.fencingToken()).isGreaterThan(crashedTerm.fencingToken());
  }

  @Test
  @Timeout(30)
  void aLeaderWhoseEntryIsRemovedIsToldAndStandsAgain() throws Exception {
    Recorder events = new Recorder();
    Leadership leadership = stand(newClient(), events, waitingWithTtl(SHORT_TTL));
    Lease first = events.nextElected();

    removeEntryBehindOurBack(key);

    assertThat(events.revocations.poll(LONG_WAIT.toMillis(), TimeUnit.MILLISECONDS)).isEqualTo(LostReason.ENTRY_REMOVED);
    Lease second = events.nextElected();
    assertThat(second.fencingToken()).isGreaterThan(first.fencingToken());
    assertThat(leadership.term()).contains(second);
  }

  @Test
  @Timeout(30)
  void aClosedCandidacyLeavesNothingAndCannotStandAgain() throws Exception {
    LockClient client = newClient();
    Recorder events = new Recorder();
    Leadership leader = stand(client, events);
    events.nextElected();
    Leadership waiting = stand(newClient(), new Recorder());

    waiting.close();
    leader.close();

    assertThatThrownBy(leader::start).isInstanceOf(IllegalStateException.class).hasMessageContaining(key);
    // The waiting candidate's entry goes with a clean-up in the background, which waits for the request it cancelled.
    await().atMost(LONG_WAIT).until(() -> entriesAtStore(key) == 0 && client.keysInUse() == 0);
  }

  /** Closing the client is a natural answer to an election (a one-shot job) or a revocation: it neither stalls nor throws. */
  @Test
  @Timeout(30)
  void closingTheClientWhenElectedIsPromptAndLeavesNoThread() throws Exception {
    LockClient client = newClient();
    ClosingFromCallback closing = new ClosingFromCallback(client, client);
    stand(client, new Recorder() {
      @Override
      public void elected(Lease term) {
        closing.close();
      }
    });

    closing.assertPromptAndNoThreadLeft();
    Recorder next = new Recorder();
    stand(newClient(), next);
    assertThat(next.nextElected().isHeld()).as("the next candidate, elected as the closed client resigned").isTrue();
  }

  @Test
  @Timeout(30)
  void closingTheClientWhenRevokedIsPromptAndLeavesNoThread() throws Exception {
    LockClient client = newClient();
    ClosingFromCallback closing = new ClosingFromCallback(client, client);
    Recorder events = new Recorder() {
      @Override
      public void revoked(LostReason reason) {
        closing.close();
      }
    };
    stand(client, events, waitingWithTtl(SHORT_TTL));
    events.nextElected();

    removeEntryBehindOurBack(key);

    closing.assertPromptAndNoThreadLeft();
    await().atMost(PROMPTLY).until(() -> entriesAtStore(key) == 0);
  }

  @Test
  @Timeout(30)
  void resigningWhenElectedIsPrompt() throws Exception {
    LockClient client = newClient();
    Leadership leadership = client.leadership(key, baseOptions());
    candidacies.add(leadership);
    ClosingFromCallback closing = new ClosingFromCallback(leadership, client);
    leadership.addListener(new Recorder() {
      @Override
      public void elected(Lease term) {
        closing.close();
      }
    });
    leadership.start();

    closing.assertPrompt();
    Recorder next = new Recorder();
    stand(newClient(), next);
    assertThat(next.nextElected().isHeld()).isTrue();
    assertThat(leadership.isLeader()).isFalse();
  }

  /** Who leads is read without standing: nobody, then each term's owner and token as terms change hands. */
  @Test
  @Timeout(30)
  void currentLeaderNamesTheTermsOwnerAndToken() throws Exception {
    Leadership bystander = newClient().leadership(key);
    candidacies.add(bystander);
    assertThat(bystander.currentLeader()).as("nobody stands yet").isEmpty();
    Recorder first = new Recorder();
    Leadership leader = stand(newClient(), first);
    Lease term = first.nextElected();

    assertThat(bystander.currentLeader()).hasValueSatisfying(now -> {
      assertThat(now.key()).isEqualTo(key);
      assertThat(now.ownerId()).isEqualTo(term.ownerId());
      assertThat(now.fencingToken()).hasValue(term.fencingToken());
    });
    assertThat(bystander.isLeader()).as("reading who leads is not standing").isFalse();
    leader.close();
    assertThat(bystander.currentLeader()).as("after the only candidate resigned").isEmpty();
  }

  /**
   * A watch tells who leads when it starts and as it changes: nobody, a term, the next term after a resignation,
   * nobody again; each term as it is, and in the order they came. Closing the watch stops it.
   */
  @Test
  @Timeout(60)
  void watchingTellsEachChangeOfLeader() throws Exception {
    LockClient watcher = newClient();
    BlockingQueue<Optional<Leader>> seen = new LinkedBlockingQueue<>();
    LeaderWatch watch = watcher.watchLeadership(key, seen::add);
    assertThat(watch.key()).isEqualTo(key);
    assertThat(seen.poll(PROMPTLY.toMillis(), TimeUnit.MILLISECONDS)).as("told at the start").isEqualTo(Optional.empty());

    Recorder first = new Recorder();
    Leadership one = stand(newClient(), first);
    Lease firstTerm = first.nextElected();
    Recorder second = new Recorder();
    stand(newClient(), second);
    awaitTold(seen, firstTerm);

    one.close();
    awaitTold(seen, second.nextElected());

    candidacies.forEach(Leadership::close);
    assertThat(nextTold(seen)).as("nobody leads once every candidate resigned").isEmpty();

    watch.close();
    watch.close();
    Recorder third = new Recorder();
    stand(newClient(), third);
    third.nextElected();
    assertThat(seen.poll(A_WHILE.toMillis(), TimeUnit.MILLISECONDS)).as("told after the watch was closed").isNull();
  }

  @Test
  @Timeout(30)
  void watchingIsRefusedBadInputAndEndsWithItsClient() throws Exception {
    LockClient watcher = newClient();
    assertThatThrownBy(() -> watcher.watchLeadership(key, null))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(key);
    assertThatThrownBy(() -> watcher.watchLeadership("", leader -> { }))
        .isInstanceOf(IllegalArgumentException.class);
    BlockingQueue<Optional<Leader>> seen = new LinkedBlockingQueue<>();
    watcher.watchLeadership(key, seen::add);
    assertThat(seen.poll(PROMPTLY.toMillis(), TimeUnit.MILLISECONDS)).isEqualTo(Optional.empty());
    watcher.close();
    assertThatThrownBy(() -> watcher.watchLeadership(key, seen::add)).isInstanceOf(IllegalStateException.class);
    Recorder leader = new Recorder();
    stand(newClient(), leader);
    leader.nextElected();
    assertThat(seen.poll(A_WHILE.toMillis(), TimeUnit.MILLISECONDS)).as("told after its client closed").isNull();
  }

  /**
   * Takes what the watch told until it names {@code term}: a term's own token may be told after an earlier reading
   * of the same holder (ZooKeeper's status reads a token that a grant is about to stamp), or after nobody (the
   * key read free between two terms), but never a later term first.
   */
  private static void awaitTold(BlockingQueue<Optional<Leader>> seen, Lease term) throws InterruptedException {
    while (true) {
      Optional<Leader> told = nextTold(seen);
      if (told.isPresent() && told.get().fencingToken().equals(OptionalLong.of(term.fencingToken()))) {
        assertThat(told.get().ownerId()).isEqualTo(term.ownerId());
        return;
      }
      told.ifPresent(leader -> assertThat(leader.fencingToken().orElse(0)).as("a term told before %s", term)
          .isLessThanOrEqualTo(term.fencingToken()));
    }
  }

  private static Optional<Leader> nextTold(BlockingQueue<Optional<Leader>> seen) throws InterruptedException {
    Optional<Leader> next = seen.poll(PROMPTLY.toMillis(), TimeUnit.MILLISECONDS);
    assertThat(next).as("a change of leader told within %s", PROMPTLY).isNotNull();
    return next;
  }

  private Leadership stand(LockClient client, Recorder recorder) {
    return stand(client, recorder, baseOptions());
  }

  private Leadership stand(LockClient client, Recorder recorder, LockOptions options) {
    Leadership leadership = client.leadership(key, options);
    candidacies.add(leadership);
    leadership.addListener(recorder);
    leadership.start();
    return leadership;
  }

  private static List<Leadership> leaders(List<Leadership> candidates) {
    return candidates.stream().filter(Leadership::isLeader).toList();
  }

  /** What a candidate's listener heard, in order. */
  private static class Recorder implements LeadershipListener {
    final BlockingQueue<Lease> elections = new LinkedBlockingQueue<>();
    final BlockingQueue<LostReason> revocations = new LinkedBlockingQueue<>();

    @Override
    public void elected(Lease term) {
      elections.add(term);
    }

    @Override
    public void revoked(LostReason reason) {
      revocations.add(reason);
    }

    Lease nextElected() throws InterruptedException {
      Lease term = elections.poll(LONG_WAIT.toMillis(), TimeUnit.MILLISECONDS);
      assertThat(term).as("an election within %s", LONG_WAIT).isNotNull();
      return term;
    }
  }
}
