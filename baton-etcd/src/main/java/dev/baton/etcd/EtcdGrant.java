package dev.baton.etcd;

import dev.baton.etcd.EntryNames.OwnEntry;
import dev.baton.spi.AcquireRequest;
import dev.baton.spi.Grant;

/**
 * A lock held in etcd: our entry, the lease it is bound to, and its create revision, the fencing token. Tokens grow
 * with the grants of a key whatever their modes, because a key's entries start to hold in the order they were
 * created: whenever an entry holds, every older entry does too (an exclusive entry holds only at the front, a shared
 * one only with no exclusive entry ahead of it, one of N permits only with fewer than N entries ahead). Entries that
 * start to hold at once, such as the readers a writer's release lets in, have distinct tokens, each larger than every
 * token granted before.
 */
record EtcdGrant(AcquireRequest request, OwnEntry entry, long leaseId, long createRevision) implements Grant {
  @Override
  public long fencingToken() {
    return createRevision;
  }
}
