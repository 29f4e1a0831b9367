package dev.baton.etcd;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.baton.spi.HolderRecord;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.options.DeleteOption;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.LeaseOption;
import io.etcd.jetcd.options.PutOption;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** A plain jetcd client for tests to look at, and tamper with, Baton's entries in etcd. */
final class EtcdInspector implements AutoCloseable {
  private static final long TIMEOUT_SECONDS = 5;

  private final Client client;
  private final String namespace;

  EtcdInspector(String endpoints) {
    this(endpoints, EtcdLockClient.DEFAULT_NAMESPACE);
  }

  EtcdInspector(String endpoints, String namespace) {
    this(Client.builder().endpoints(endpoints.split(",")).build(), namespace);
  }

  /** An inspector that authenticates as {@code user}, for a server with authentication enabled. */
  static EtcdInspector as(String endpoints, String user, String password) {
    return new EtcdInspector(Client.builder().endpoints(endpoints.split(","))
        .user(ByteSequence.from(user, UTF_8)).password(ByteSequence.from(password, UTF_8)).build(),
        EtcdLockClient.DEFAULT_NAMESPACE);
  }

  private EtcdInspector(Client client, String namespace) {
    this.client = client;
    this.namespace = namespace;
  }

  /** Where the entries of {@code key} live: {@code <namespace><key>\u0000}. */
  ByteSequence prefix(String key) {
    return ByteSequence.from(namespace + key + "\u0000", UTF_8);
  }

  /** Baton's entries of the key (holder first, then the queued waiters), in order of create revision. */
  List<KeyValue> entries(String key) {
    GetOption prefixed = GetOption.builder().isPrefix(true).build();
    return call(client.getKVClient().get(prefix(key), prefixed)).getKvs().stream()
        .sorted(Comparator.comparingLong(KeyValue::getCreateRevision))
        .toList();
  }

  /** How many keys the namespace holds, of every lock. */
  long keysInNamespace() {
    GetOption counted = GetOption.builder().isPrefix(true).withCountOnly(true).build();
    return call(client.getKVClient().get(ByteSequence.from(namespace, UTF_8), counted)).getCount();
  }

  /** How many entries the key has: holder plus queued waiters. */
  int count(String key) {
    return entries(key).size();
  }

  /** Deletes every entry of the key, as an operator might. */
  void deleteEntries(String key) {
    call(client.getKVClient().delete(prefix(key), DeleteOption.builder().isPrefix(true).build()));
  }

  /** Puts {@code value} at the entry key {@code name} of {@code key}, bound to {@code leaseId}, as a client would. */
  void putEntry(String key, String name, String value, long leaseId) {
    call(client.getKVClient().put(ByteSequence.from(namespace + key + "\u0000" + name, UTF_8), ByteSequence.from(value, UTF_8),
        PutOption.builder().withLeaseId(leaseId).build()));
  }

  /** The lease the key's first entry (its holder's) is bound to. */
  long holderLease(String key) {
    List<KeyValue> entries = entries(key);
    if (entries.isEmpty()) {
      throw new IllegalStateException("Lock '" + key + "' has no entry in etcd");
    }
    return entries.get(0).getLease();
  }

  /** Grants a lease of {@code seconds}, as a client does on connect; its id. */
  long grantLease(long seconds) {
    return call(client.getLeaseClient().grant(seconds)).getID();
  }

  /** Deletes one entry, as its client's release does. */
  void delete(KeyValue entry) {
    call(client.getKVClient().delete(entry.getKey()));
  }

  /** Revokes a lease, which deletes every key bound to it. */
  void revoke(long leaseId) {
    call(client.getLeaseClient().revoke(leaseId));
  }

  /** The seconds the lease has left; -1 if etcd no longer has it. */
  long secondsLeft(long leaseId) {
    return call(client.getLeaseClient().timeToLive(leaseId, LeaseOption.DEFAULT)).getTTL();
  }

  /** Text of an entry's key or value. */
  /** The owner id an entry names. */
  static String owner(KeyValue entry) {
    return HolderRecord.read(text(entry.getValue())).ownerId();
  }

  static String text(ByteSequence bytes) {
    return bytes.toString(UTF_8);
  }

  private static <T> T call(CompletableFuture<T> future) {
    try {
      return future.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    } catch (ExecutionException | TimeoutException e) {
      future.cancel(true);
      throw new IllegalStateException("The inspector's etcd call failed", e);
    }
  }

  @Override
  public void close() {
    client.close();
  }
}
