package dev.baton.etcd;

import com.google.protobuf.ByteString;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.KV;
import io.etcd.jetcd.api.KVGrpc;
import io.etcd.jetcd.api.PutRequest;
import io.etcd.jetcd.api.RequestOp;
import io.etcd.jetcd.api.TxnRequest;
import io.etcd.jetcd.kv.TxnResponse;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.PutOption;
import io.grpc.stub.StreamObserver;
import java.util.concurrent.CompletableFuture;

/**
 * The transaction that queues an acquisition's entry: a put of the entry, bound to the client's lease and answered
 * with the entry it replaced, if any ({@code prevKV}); and, only if another entry could conflict with ours, a read of
 * the oldest conflicting entries. etcd chooses between the two in the same transaction: if no conflicting entry
 * exists ({@link RuleReads#noneConflicting}), it puts alone, and ours holds; else it puts and reads. An uncontended
 * acquisition's answer thus carries no entry.
 *
 * <p>The transaction goes on gRPC's stub over jetcd's channel, with jetcd's credentials: jetcd's {@code Cmp} has no
 * range, and its KV client's path (a retry policy, a Vert.x future, a hop through its executor) cost about a fifth of
 * the client's CPU time per lock cycle. If the stub's call fails, the transaction is sent once more as a put and a
 * read without comparison (what the other branch does), on jetcd's KV client, which resends after a transport failure
 * and renews an expired authentication token. Either may be applied twice: the second put then finds our own entry
 * and keeps it ({@link EtcdAttempt}).
 */
final class EntryPuts {
  private final KVGrpc.KVStub stub;
  private final KV kv;

  EntryPuts(KVGrpc.KVStub stub, KV kv) {
    this.stub = stub;
    this.kv = kv;
  }

  /**
   * Puts {@code entry} holding {@code owner} on lease {@code leaseId}, and reads by {@code reads} the oldest
   * conflicting entries if any exists. The answer has the put's response first, and the read's after it unless the
   * comparison found no conflicting entry ({@link TxnResponse#getGetResponses()} empty: ours holds).
   */
  CompletableFuture<TxnResponse> putAndRead(ByteSequence entry, ByteSequence owner, long leaseId, RuleReads reads) {
    RequestOp put = RequestOp.newBuilder().setRequestPut(PutRequest.newBuilder()
        .setKey(ByteString.copyFrom(entry.getBytes())).setValue(ByteString.copyFrom(owner.getBytes()))
        .setLease(leaseId).setPrevKv(true)).build();
    TxnRequest request = TxnRequest.newBuilder()
        .addCompare(reads.noneConflicting())
        .addSuccess(put)
        .addFailure(put)
        .addFailure(RequestOp.newBuilder().setRequestRange(reads.oldestRequest()))
        .build();
    CompletableFuture<io.etcd.jetcd.api.TxnResponse> answer = new CompletableFuture<>();
    stub.txn(request, new StreamObserver<>() {
      @Override
      public void onNext(io.etcd.jetcd.api.TxnResponse response) {
        answer.complete(response);
      }

      @Override
      public void onError(Throwable failure) {
        answer.completeExceptionally(failure);
      }

      @Override
      public void onCompleted() {
        // The answer came with onNext.
      }
    });
    return answer.thenApply(response -> new TxnResponse(response, ByteSequence.EMPTY))
        .exceptionallyCompose(failure -> kv.txn()
            .Then(Op.put(entry, owner, PutOption.builder().withLeaseId(leaseId).withPrevKV().build()), reads.oldest())
            .commit());
  }
}
