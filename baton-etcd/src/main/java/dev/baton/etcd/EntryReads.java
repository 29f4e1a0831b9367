package dev.baton.etcd;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.KV;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.kv.GetResponse;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.GetOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Reads the entries the renewals of a client ask about, many to a read-only transaction: a watchdog tick
 * that renews ten thousand locks sends a hundred requests, not ten thousand. Reads asked for within a
 * millisecond go out together; a read alone is a plain get.
 */
final class EntryReads {
  /** etcd refuses transactions of more than 128 operations unless started with a higher --max-txn-ops. */
  static final int MAX_READS = 128;
  private static final long GATHER_MICROS = 1_000;

  private final KV kv;
  private final ScheduledExecutorService scheduler;
  private final Queue<Read> asked = new ConcurrentLinkedQueue<>();
  private final AtomicBoolean sending = new AtomicBoolean();

  EntryReads(KV kv, ScheduledExecutorService scheduler) {
    this.kv = kv;
    this.scheduler = scheduler;
  }

  /** The create revision of {@code entry}, or 0 if etcd does not have it. */
  CompletableFuture<Long> createRevision(ByteSequence entry) {
    Read read = new Read(entry, new CompletableFuture<>());
    asked.add(read);
    if (sending.compareAndSet(false, true)) {
      try {
        scheduler.schedule(this::sendAsked, GATHER_MICROS, TimeUnit.MICROSECONDS);
      } catch (RejectedExecutionException closed) {
        read.answer().completeExceptionally(new IllegalStateException("The etcd client is closed"));
      }
    }
    return read.answer();
  }

  private void sendAsked() {
    sending.set(false);
    List<Read> batch = new ArrayList<>(MAX_READS);
    for (Read read = asked.poll(); read != null; read = asked.poll()) {
      batch.add(read);
      if (batch.size() == MAX_READS) {
        send(batch);
        batch = new ArrayList<>(MAX_READS);
      }
    }
    if (!batch.isEmpty()) {
      send(batch);
    }
  }

  private void send(List<Read> batch) {
    if (batch.size() == 1) {
      Read read = batch.get(0);
      kv.get(read.entry()).whenComplete((found, error) -> answer(read, error, found));
      return;
    }
    kv.txn().Then(batch.stream().map(read -> Op.get(read.entry(), GetOption.DEFAULT)).toArray(Op[]::new)).commit()
        .whenComplete((response, error) -> {
          for (int i = 0; i < batch.size(); i++) {
            answer(batch.get(i), error, error == null ? response.getGetResponses().get(i) : null);
          }
        });
  }

  private static void answer(Read read, Throwable error, GetResponse found) {
    if (error != null) {
      read.answer().completeExceptionally(error);
    } else {
      read.answer().complete(createRevision(found));
    }
  }

  private static long createRevision(GetResponse found) {
    List<KeyValue> kvs = found.getKvs();
    return kvs.isEmpty() ? 0 : kvs.get(0).getCreateRevision();
  }

  private record Read(ByteSequence entry, CompletableFuture<Long> answer) {}
}
