package dev.baton.bench.suite;

import dev.baton.Lease;
import dev.baton.LockClient;
import java.util.ArrayList;
import java.util.List;

/**
 * The work of a {@link Hold#MULTI_LOCK} done with Baton's single locks: each key of a random {@link KeySet} with
 * {@code client.lock(key)}, one after the other in ascending order (so that no two threads deadlock), released last
 * first. What a user without a multi-lock writes by hand.
 */
final class SingleLocksInOrderContender implements Contender {
  private final LockClient client;

  SingleLocksInOrderContender(LockClient client) {
    this.client = client;
  }

  @Override
  public Locker locker(String key, Hold hold) {
    if (hold != Hold.MULTI_LOCK) {
      throw hold.unsupportedBy(this);
    }
    return new Locker() {
      private final List<Lease> leases = new ArrayList<>();

      @Override
      public void lock() throws InterruptedException {
        for (String each : KeySet.random(key)) {
          leases.add(client.lock(each).acquire());
        }
      }

      @Override
      public void unlock() {
        for (int i = leases.size() - 1; i >= 0; i--) {
          leases.get(i).close();
        }
        leases.clear();
      }
    };
  }

  @Override
  public void close() {
    client.close();
  }
}
