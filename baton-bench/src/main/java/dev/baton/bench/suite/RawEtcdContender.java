package dev.baton.bench.suite;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KV;
import io.etcd.jetcd.options.PutOption;
import java.nio.charset.StandardCharsets;

/**
 * The raw limit of etcd for a lock cycle: a put bound to a lease, then a delete, with jetcd, one client and one
 * lease (an hour, outliving the run without a keep-alive) shared by the threads.
 */
final class RawEtcdContender implements Contender {
  private static final long LEASE_SECONDS = 3600;
  private static final ByteSequence OWNER = ByteSequence.from("owner", StandardCharsets.UTF_8);

  private final Client client;
  private final KV kv;
  private final long lease;
  private final PutOption withLease;

  RawEtcdContender(String endpoint) throws Exception {
    client = Client.builder().endpoints(endpoint).build();
    kv = client.getKVClient();
    lease = client.getLeaseClient().grant(LEASE_SECONDS).get().getID();
    withLease = PutOption.builder().withLeaseId(lease).build();
  }

  @Override
  public Locker locker(String key, Hold hold) {
    if (hold != Hold.LOCK) {
      throw hold.unsupportedBy(this);
    }
    ByteSequence name = ByteSequence.from("/raw/" + key, StandardCharsets.UTF_8);
    return new Locker() {
      @Override
      public void lock() throws Exception {
        kv.put(name, OWNER, withLease).get();
      }

      @Override
      public void unlock() throws Exception {
        kv.delete(name).get();
      }
    };
  }

  @Override
  public void close() throws Exception {
    client.getLeaseClient().revoke(lease).get();
    client.close();
  }
}
