package dev.baton.etcd;

import dev.baton.spi.AcquireRequest;
import dev.baton.spi.Grant;
import io.etcd.jetcd.ByteSequence;

/** A lock held in etcd: our entry, the lease it is bound to, and its create revision, the fencing token. */
record EtcdGrant(AcquireRequest request, ByteSequence entry, long leaseId, long createRevision) implements Grant {
  @Override
  public long fencingToken() {
    return createRevision;
  }
}
