package dev.baton.zookeeper;

import dev.baton.BackendUnavailableException;
import dev.baton.spi.WakeUp;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.zookeeper.AddWatchMode;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.OpResult;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Stat;

/**
 * ZooKeeper's asynchronous calls as futures, so that requests can be sent back to back (a session's
 * requests are served in order) and awaited with a bound.
 */
final class ZkCalls {
  /** A created node: its name as the server made it (with the sequence) and its stat. */
  record Created(String path, Stat stat) {}

  /** A node's data and stat, as read. */
  record Data(byte[] bytes, Stat stat) {}

  /** A node's children and its own stat, as listed together. */
  record Listed(List<String> children, Stat stat) {}

  private ZkCalls() {}

  /** Completes {@code result} with {@code value} if the call succeeded ({@code rc} OK), else with its error. */
  private static <T> void settle(CompletableFuture<T> result, int rc, String path, T value) {
    if (rc == KeeperException.Code.OK.intValue()) {
      result.complete(value);
    } else {
      result.completeExceptionally(KeeperException.create(KeeperException.Code.get(rc), path));
    }
  }

  static CompletableFuture<Created> create(ZooKeeper zk, String path, byte[] data, List<ACL> acl, CreateMode mode) {
    CompletableFuture<Created> result = new CompletableFuture<>();
    zk.create(path, data, acl, mode, (rc, p, ctx, name, stat) -> settle(result, rc, p, new Created(name, stat)), null);
    return result;
  }

  static CompletableFuture<List<String>> children(ZooKeeper zk, String path) {
    CompletableFuture<List<String>> result = new CompletableFuture<>();
    zk.getChildren(path, false, (rc, p, ctx, children, stat) -> settle(result, rc, p, children), null);
    return result;
  }

  /** The node's children with its stat, whose mzxid tells when its data was last written. */
  static CompletableFuture<Listed> listing(ZooKeeper zk, String path) {
    CompletableFuture<Listed> result = new CompletableFuture<>();
    zk.getChildren(path, false, (rc, p, ctx, children, stat) -> settle(result, rc, p, new Listed(children, stat)), null);
    return result;
  }

  /** The node's ACL; fails with {@link KeeperException.NoNodeException} when there is no such node. */
  static CompletableFuture<List<ACL>> acl(ZooKeeper zk, String path) {
    CompletableFuture<List<ACL>> result = new CompletableFuture<>();
    zk.getACL(path, null, (rc, p, ctx, acl, stat) -> settle(result, rc, p, acl), null);
    return result;
  }

  /**
   * Has the server this session talks to catch up with the leader, so that the session's reads sent after it see
   * every write committed before it, whichever client made it (ZooKeeper's reads are otherwise only as fresh as the
   * server's copy). Completes once caught up; the reads need not wait for it, as a session's requests are served in
   * order.
   */
  static CompletableFuture<Void> sync(ZooKeeper zk, String path) {
    CompletableFuture<Void> result = new CompletableFuture<>();
    zk.sync(path, (rc, p, ctx) -> {
      if (rc == KeeperException.Code.OK.intValue() || rc == KeeperException.Code.NONODE.intValue()) {
        result.complete(null);
      } else {
        result.completeExceptionally(KeeperException.create(KeeperException.Code.get(rc), p));
      }
    }, null);
    return result;
  }

  /** Sets {@code watcher} on {@code path} in {@code mode}, whether or not the node exists; completes once set. */
  static CompletableFuture<Void> addWatch(ZooKeeper zk, String path, Watcher watcher, AddWatchMode mode) {
    CompletableFuture<Void> result = new CompletableFuture<>();
    zk.addWatch(path, watcher, mode, (rc, p, ctx) -> {
      if (rc == KeeperException.Code.OK.intValue()) {
        result.complete(null);
      } else {
        result.completeExceptionally(KeeperException.create(KeeperException.Code.get(rc), p));
      }
    }, null);
    return result;
  }

  /** The node's stat, or null (as a result, not an error) when there is no such node. */
  static CompletableFuture<Stat> exists(ZooKeeper zk, String path) {
    CompletableFuture<Stat> result = new CompletableFuture<>();
    zk.exists(path, false, (rc, p, ctx, stat) -> {
      if (rc == KeeperException.Code.OK.intValue() || rc == KeeperException.Code.NONODE.intValue()) {
        result.complete(stat);
      } else {
        result.completeExceptionally(KeeperException.create(KeeperException.Code.get(rc), p));
      }
    }, null);
    return result;
  }

  /** Deletes the node, whatever its version; completes with false (as a result, not an error) when there is no such node. */
  static CompletableFuture<Boolean> delete(ZooKeeper zk, String path) {
    CompletableFuture<Boolean> result = new CompletableFuture<>();
    zk.delete(path, -1, (rc, p, ctx) -> {
      if (rc == KeeperException.Code.OK.intValue() || rc == KeeperException.Code.NONODE.intValue()) {
        result.complete(rc == KeeperException.Code.OK.intValue());
      } else {
        result.completeExceptionally(KeeperException.create(KeeperException.Code.get(rc), p));
      }
    }, null);
    return result;
  }

  /** The node's data and stat; fails with {@link KeeperException.NoNodeException} when there is no such node. */
  static CompletableFuture<Data> data(ZooKeeper zk, String path) {
    CompletableFuture<Data> result = new CompletableFuture<>();
    zk.getData(path, false, (rc, p, ctx, data, stat) -> settle(result, rc, p, new Data(data, stat)), null);
    return result;
  }

  /**
   * Signals {@code wakeUp} when the node changes or goes. Completes with the node's stat once the watch is set, null
   * (and no watch set) when there is no such node.
   */
  static CompletableFuture<Stat> watch(ZooKeeper zk, String path, WakeUp wakeUp) {
    CompletableFuture<Stat> result = new CompletableFuture<>();
    zk.getData(path, event -> wakeUp.signal(), (rc, p, ctx, data, stat) -> {
      if (rc == KeeperException.Code.OK.intValue() || rc == KeeperException.Code.NONODE.intValue()) {
        result.complete(stat);
      } else {
        result.completeExceptionally(KeeperException.create(KeeperException.Code.get(rc), p));
      }
    }, null);
    return result;
  }

  /** Writes a node's data, whatever its version: true once written, false (as a result) when there is no such node. */
  static CompletableFuture<Boolean> setData(ZooKeeper zk, String path, byte[] data) {
    CompletableFuture<Boolean> result = new CompletableFuture<>();
    zk.setData(path, data, -1, (rc, p, ctx, stat) -> {
      if (rc == KeeperException.Code.NONODE.intValue()) {
        result.complete(false);
      } else {
        settle(result, rc, p, true);
      }
    }, null);
    return result;
  }

  /**
   * Rewrites a node's data and empties its parent's in one transaction, so that both record the transaction's zxid
   * as their mzxid. Completes with that zxid, or null (as a result, not an error) when the node is gone.
   */
  static CompletableFuture<Long> stamp(ZooKeeper zk, String path, byte[] data, String parent) {
    CompletableFuture<Long> result = new CompletableFuture<>();
    zk.multi(List.of(Op.setData(path, data, -1), Op.setData(parent, new byte[0], -1)), (rc, p, ctx, results) -> {
      if (rc == KeeperException.Code.OK.intValue()) {
        result.complete(((OpResult.SetDataResult) results.get(0)).getStat().getMzxid());
      } else if (rc == KeeperException.Code.NONODE.intValue()) {
        result.complete(null);
      } else {
        result.completeExceptionally(KeeperException.create(KeeperException.Code.get(rc), path));
      }
    }, null);
    return result;
  }

  /**
   * Waits for a call's result.
   *
   * @throws KeeperException as ZooKeeper answered, for the caller to tell a missing node from a lost connection
   * @throws BackendUnavailableException if no answer came within {@code timeout}
   */
  static <T> T await(CompletableFuture<T> call, Duration timeout, String what) throws KeeperException {
    try {
      return call.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof KeeperException keeper) {
        throw keeper;
      }
      throw new BackendUnavailableException(what + " failed on ZooKeeper: " + e.getCause(), e.getCause());
    } catch (TimeoutException e) {
      throw new BackendUnavailableException(what + ": ZooKeeper did not answer within " + timeout.toMillis() + " ms", e);
    } catch (InterruptedException e) {
      throw ZkErrors.interrupted(what, e);
    }
  }

  /**
   * Waits for a call to complete, however it does, at most {@code timeout}: for a call whose answer comes after those
   * of calls sent before it, which are then complete too. Its own result is read with {@link #await}.
   */
  static void awaitQuietly(CompletableFuture<?> call, Duration timeout) {
    try {
      call.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
    } catch (ExecutionException | TimeoutException e) {
      // Read, and reported, by the caller's await.
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Whether the outcome of a write that failed with {@code e} is unknown: it may have been applied. */
  static boolean outcomeUnknown(KeeperException e) {
    return e.code() == KeeperException.Code.CONNECTIONLOSS || e.code() == KeeperException.Code.OPERATIONTIMEOUT;
  }
}
