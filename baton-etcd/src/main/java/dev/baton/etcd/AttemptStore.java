package dev.baton.etcd;

import dev.baton.etcd.EntryNames.OwnEntry;
import dev.baton.spi.QueueRule;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.kv.TxnResponse;
import io.etcd.jetcd.op.CmpTarget;
import io.etcd.jetcd.op.Op;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * What an {@link EtcdAttempt} asks of etcd: the client's lease, which its entry is bound to; a name for the entry; the
 * transactions that write, read and delete it; and the watches it waits on. Every call that waits for etcd's answer
 * is bounded by the client's command timeout.
 */
interface AttemptStore {
  /** The client's lease now: the one an entry written now is bound to. */
  long leaseId();

  /**
   * The {@link System#nanoTime()} until which lease {@code leaseId} is sure to live, as soon as that is known to reach
   * {@code neededUntil} or etcd has been asked again ({@link LeaseLife}).
   */
  CompletableFuture<Long> aliveUntil(long leaseId, long neededUntil);

  /** A call bound to lease {@code leaseId} failed with {@code error}: if etcd said it knows no such lease, check it now. */
  void leaseRefused(long leaseId, RuntimeException error);

  /** The session timeout, the lease's ttl: how long a waiter waits at most for a wake-up, in case its watch went quiet. */
  Duration sessionTimeout();

  /** How long a lease counts as held at most ({@link dev.baton.spi.LockBackend#maxTtl()}). */
  Duration maxTtl();

  /**
   * A name for the entry of an acquisition under {@code rule} of {@code key} on lease {@code leaseId}
   * ({@link EntryNames}); free it when the acquisition ends.
   */
  OwnEntry takeEntryName(String key, long leaseId, QueueRule rule);

  /**
   * Sends, in one transaction, the put of {@code entry} holding {@code owner}, bound to lease {@code leaseId} and
   * answered with the entry it replaced, if any ({@code prevKV}), and then, if another entry could conflict with
   * ours, {@code reads}' read of the oldest conflicting entries ({@link EntryPuts}): no read in the answer means
   * that none exists.
   */
  CompletableFuture<TxnResponse> putAndRead(ByteSequence entry, ByteSequence owner, long leaseId, RuleReads reads);

  /** Runs {@code reads} in one read-only transaction, and waits for its answer; {@code what} names it in errors. */
  TxnResponse read(String what, Op... reads);

  /**
   * Deletes {@code entry} if it still has {@code expected} (its create revision, or its value: whose it is), in one
   * transaction; true if it did. A client reuses its entry names, so a delete that might be applied late compares
   * (only a release's delete, sent once and answered, goes by name alone: {@link EntryDeletes}).
   */
  boolean deleteIf(ByteSequence entry, CmpTarget<?> expected, String what);

  /**
   * Watches the deletion of each of {@code entries} from {@code fromRevision} on, waking the waiter at the first; the
   * returned handle stops them all.
   */
  EtcdWatches.Watching onDeletionOfAny(List<ByteSequence> entries, long fromRevision, Runnable wakeUp);

  /** The answer to {@code call}, within the command timeout; {@code what} names the call in errors ({@link EtcdCalls}). */
  <T> T await(CompletableFuture<T> call, String what);
}
