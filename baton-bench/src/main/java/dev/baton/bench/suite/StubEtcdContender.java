package dev.baton.bench.suite;

import com.google.protobuf.ByteString;
import io.etcd.jetcd.api.Compare;
import io.etcd.jetcd.api.DeleteRangeRequest;
import io.etcd.jetcd.api.KVGrpc;
import io.etcd.jetcd.api.LeaseGrantRequest;
import io.etcd.jetcd.api.LeaseGrpc;
import io.etcd.jetcd.api.LeaseRevokeRequest;
import io.etcd.jetcd.api.PutRequest;
import io.etcd.jetcd.api.RangeRequest;
import io.etcd.jetcd.api.RequestOp;
import io.etcd.jetcd.api.TxnRequest;
import io.grpc.ManagedChannel;
import io.grpc.netty.NettyChannelBuilder;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * Lock cycles sent on gRPC's blocking stub, on a channel of its own, without jetcd's client: what a cycle's requests
 * cost etcd and the client with the least client between them. Each releases by a plain delete; they differ in the
 * acquire, as a {@link Acquire}. One lease of an hour (no keep-alive within a run) shared by the threads.
 */
final class StubEtcdContender implements Contender {
  private static final long LEASE_SECONDS = 3600;

  /** How a cycle acquires. */
  enum Acquire {
    /** A put bound to the lease, not in a transaction: the raw cycle's request. */
    PUT,
    /** A transaction of that put alone: the least any transaction that writes the entry costs. */
    TXN_PUT,
    /** Baton's acquire until now: a put (answered with the entry it replaced) and the key's oldest entry, read. */
    PUT_AND_READ,
    /**
     * Baton's acquire now: the put answered with the entry it replaced, and the oldest entry read only if an entry of
     * the key exists (their create revisions, compared over the key's range, are not all 0).
     */
    COMPARE_FIRST
  }

  private final ManagedChannel channel;
  private final KVGrpc.KVBlockingStub kv;
  private final long lease;
  private final Acquire acquire;
  private final String prefix;

  StubEtcdContender(String endpoint, Acquire acquire, String prefix) {
    URI uri = URI.create(endpoint);
    this.channel = NettyChannelBuilder.forAddress(uri.getHost(), uri.getPort()).usePlaintext().build();
    this.kv = KVGrpc.newBlockingStub(channel);
    this.lease = LeaseGrpc.newBlockingStub(channel)
        .leaseGrant(LeaseGrantRequest.newBuilder().setTTL(LEASE_SECONDS).build()).getID();
    this.acquire = acquire;
    this.prefix = prefix;
  }

  @Override
  public Locker locker(String key, Hold hold) {
    if (hold != Hold.LOCK) {
      throw hold.unsupportedBy(this);
    }
    ByteString entries = bytes(prefix + key + "\u0000");
    ByteString entriesEnd = bytes(prefix + key + "\u0001");
    ByteString name = bytes(prefix + key + "\u0000" + Long.toHexString(lease));
    ByteString owner = bytes("owner of " + key);
    PutRequest put = PutRequest.newBuilder().setKey(name).setValue(owner).setLease(lease).build();
    PutRequest putPrev = put.toBuilder().setPrevKv(true).build();
    RangeRequest oldest = RangeRequest.newBuilder().setKey(entries).setRangeEnd(entriesEnd).setKeysOnly(true)
        .setSortTarget(RangeRequest.SortTarget.CREATE).setSortOrder(RangeRequest.SortOrder.ASCEND).setLimit(1).build();
    TxnRequest txnPut = TxnRequest.newBuilder().addSuccess(RequestOp.newBuilder().setRequestPut(put)).build();
    TxnRequest putAndRead = TxnRequest.newBuilder().addSuccess(RequestOp.newBuilder().setRequestPut(putPrev))
        .addSuccess(RequestOp.newBuilder().setRequestRange(oldest)).build();
    TxnRequest compareFirst = TxnRequest.newBuilder()
        .addCompare(Compare.newBuilder().setKey(entries).setRangeEnd(entriesEnd).setTarget(Compare.CompareTarget.CREATE)
            .setResult(Compare.CompareResult.EQUAL).setCreateRevision(0))
        .addSuccess(RequestOp.newBuilder().setRequestPut(putPrev))
        .addFailure(RequestOp.newBuilder().setRequestPut(putPrev))
        .addFailure(RequestOp.newBuilder().setRequestRange(oldest)).build();
    DeleteRangeRequest delete = DeleteRangeRequest.newBuilder().setKey(name).build();
    return new Locker() {
      @Override
      public void lock() {
        switch (acquire) {
          case PUT -> kv.put(put);
          case TXN_PUT -> kv.txn(txnPut);
          case PUT_AND_READ -> kv.txn(putAndRead);
          case COMPARE_FIRST -> {
            if (!kv.txn(compareFirst).getSucceeded()) {
              throw new IllegalStateException("The entries of '" + key + "' were not all gone");
            }
          }
        }
      }

      @Override
      public void unlock() {
        kv.deleteRange(delete);
      }
    };
  }

  private static ByteString bytes(String text) {
    return ByteString.copyFrom(text, StandardCharsets.UTF_8);
  }

  @Override
  public void close() throws Exception {
    LeaseGrpc.newBlockingStub(channel).leaseRevoke(LeaseRevokeRequest.newBuilder().setID(lease).build());
    channel.shutdown().awaitTermination(5, TimeUnit.SECONDS);
  }
}
