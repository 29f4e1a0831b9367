package dev.baton.bench.suite;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KV;
import io.etcd.jetcd.op.Cmp;
import io.etcd.jetcd.op.CmpTarget;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.DeleteOption;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.PutOption;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The requests of Baton's uncontended etcd lock cycle sent by hand with jetcd's KV client, without Baton's engine:
 * one transaction that puts the entry bound to a lease (answered with the entry it replaced) and reads the key's
 * oldest entry by create revision, then the release, as a {@link Release}. One client and one lease of an hour (no
 * keep-alive within a run) shared by the threads, as {@link RawEtcdContender}.
 */
final class HandSentEtcdContender implements Contender {
  private static final long LEASE_SECONDS = 3600;
  private static final GetOption OLDEST_ENTRY = GetOption.builder().isPrefix(true).withKeysOnly(true)
      .withSortField(GetOption.SortTarget.CREATE).withSortOrder(GetOption.SortOrder.ASCEND).withLimit(1).build();

  /** How a hand-sent cycle names its entry and releases it. */
  enum Release {
    /** One name per lease and key, deleted by a transaction that compares its create revision: Baton's until now. */
    COMPARED_DELETE,
    /** One name per lease and key, deleted by a plain delete. */
    PLAIN_DELETE,
    /** A new name per acquisition (a counter), deleted by a plain delete. */
    UNIQUE_NAMES
  }

  private final Client client;
  private final KV kv;
  private final long lease;
  private final PutOption put;
  private final Release release;
  private final String prefix;
  private final AtomicLong names = new AtomicLong();

  HandSentEtcdContender(String endpoint, Release release, String prefix) throws Exception {
    this.client = Client.builder().endpoints(endpoint).build();
    this.kv = client.getKVClient();
    this.lease = client.getLeaseClient().grant(LEASE_SECONDS).get().getID();
    this.put = PutOption.builder().withLeaseId(lease).withPrevKV().build();
    this.release = release;
    this.prefix = prefix;
  }

  @Override
  public Locker locker(String key, Hold hold) {
    if (hold != Hold.LOCK) {
      throw hold.unsupportedBy(this);
    }
    String entries = prefix + key + "\u0000";
    ByteSequence queue = ByteSequence.from(entries, StandardCharsets.UTF_8);
    ByteSequence owner = ByteSequence.from("owner of " + key, StandardCharsets.UTF_8);
    ByteSequence reused = ByteSequence.from(entries + Long.toHexString(lease), StandardCharsets.UTF_8);
    return new Locker() {
      private ByteSequence name;
      private long createRevision;

      @Override
      public void lock() throws Exception {
        name = release == Release.UNIQUE_NAMES
            ? ByteSequence.from(entries + Long.toHexString(lease) + "/" + names.incrementAndGet(),
                StandardCharsets.UTF_8)
            : reused;
        createRevision = kv.txn().Then(Op.put(name, owner, put), Op.get(queue, OLDEST_ENTRY)).commit().get()
            .getHeader().getRevision();
      }

      @Override
      public void unlock() throws Exception {
        if (release == Release.COMPARED_DELETE) {
          kv.txn().If(new Cmp(name, Cmp.Op.EQUAL, CmpTarget.createRevision(createRevision)))
              .Then(Op.delete(name, DeleteOption.DEFAULT)).commit().get();
        } else {
          kv.delete(name).get();
        }
      }
    };
  }

  @Override
  public void close() throws Exception {
    client.getLeaseClient().revoke(lease).get();
    client.close();
  }
}
