package dev.baton.etcd;

import com.google.protobuf.ByteString;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.api.DeleteRangeRequest;
import io.etcd.jetcd.api.KVGrpc;
import io.grpc.StatusRuntimeException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Plain deletes of one entry each, sent once: on gRPC's blocking stub over jetcd's channel, which jetcd's KV client
 * would retry after a failure (so that a delete answered once may have been sent twice, and its first copy may still
 * be on its way to the leader). A delete answered here was applied once, and nothing of it is left to apply: the
 * name may be written again ({@link EntryNames}). The calling thread waits for the answer itself, with no hop through
 * jetcd's executors.
 */
final class EntryDeletes {
  private final KVGrpc.KVBlockingStub stub;
  private final Duration timeout;

  EntryDeletes(KVGrpc.KVBlockingStub stub, Duration timeout) {
    this.stub = stub;
    this.timeout = timeout;
  }

  /**
   * Deletes {@code entry}, within the command timeout; true if it was there. Fails, with nothing known of whether etcd
   * applied the delete or will, if etcd's answer does not come; {@code what} names the call in that error.
   */
  boolean delete(ByteSequence entry, String what) {
    DeleteRangeRequest request = DeleteRangeRequest.newBuilder().setKey(ByteString.copyFrom(entry.getBytes())).build();
    try {
      return stub.withDeadlineAfter(timeout.toNanos(), TimeUnit.NANOSECONDS).deleteRange(request).getDeleted() > 0;
    } catch (StatusRuntimeException e) {
      throw EtcdCalls.translate(e, what);
    }
  }
}
