package dev.baton.zookeeper;

import dev.baton.spi.AcquireRequest;
import dev.baton.spi.ReleaseRequestListener;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.zookeeper.AddWatchMode;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;

/**
 * Requests to release on ZooKeeper, addressed to the holding client: each client has a node of its own under the base
 * path, {@code _c_release-CLIENT} (the reserved prefix, so no key's node and skipped by listings), made by the first
 * request as a container. A client that listens (from its first lease that wants to hear requests) says so with an
 * ephemeral node {@code _c_listening-CLIENT}, and watches its own node (a persistent watch); both end with its session.
 * A request to a listening client is an ephemeral sequential child of its node, {@code OWNER_ID KEY}, in the asker's
 * session, which the client reads and deletes; the asker waits for that deletion (at most a call's timeout), so that
 * an asker that closes at once (a {@code baton revoke}) does not take its request with it. Nothing is left behind:
 * the requests go with the asker's session at the latest, and the container is swept once empty.
 *
 * <p>Not a data change on the holder's lock node, as Curator's revocation is: a lock node's last write (its mzxid) is
 * the fencing token it was granted with ({@link ZooKeeperBackend#held}), which a request must not move. Compatible
 * with Curator, its format is spoken too: a holder's node that is not Baton's (its owner id has no {@code :}) gets
 * Curator's {@code __REVOKE__} as its data, which an {@code InterProcessMutex} made revocable hears; and a Baton
 * holder that listens watches its own node for it, so that Curator's {@code Revoker.attemptRevoke} reaches it.
 */
final class ReleaseRequestNodes {
  private static final String NODE_PREFIX = ZkPaths.RESERVED_PREFIX + "release-";
  private static final String LISTENING_PREFIX = ZkPaths.RESERVED_PREFIX + "listening-";
  /** What Curator's {@code Revoker} writes on a lock node to ask its holder to release ({@code RevocationSpec}). */
  private static final byte[] CURATOR_REVOKE = "__REVOKE__".getBytes(StandardCharsets.UTF_8);

  private final ZooKeeperBackend store;
  private final ZkPaths paths;
  private final boolean curatorCompatible;
  private volatile ReleaseRequestListener listener = (key, ownerId) -> { };
  /** The children being read and deleted, so that two listings deliver each once. */
  private final Set<String> inFlight = ConcurrentHashMap.newKeySet();
  /** Guarded by this: the session handle the watch is on, or null before the first listen. */
  private ZooKeeper watched;
  /** Guarded by this: the client's own node, once it listens. */
  private String node;

  /** @param curatorCompatible whether to speak Curator's revocation too (compat=curator) */
  ReleaseRequestNodes(ZooKeeperBackend store, ZkPaths paths, boolean curatorCompatible) {
    this.store = store;
    this.paths = paths;
    this.curatorCompatible = curatorCompatible;
  }

  void setListener(ReleaseRequestListener listener) {
    this.listener = listener;
  }

  /** The node of client {@code clientId}, under which requests to release its entries are made. */
  String nodeOf(String clientId) {
    return paths.lockPath(NODE_PREFIX + clientId);
  }

  /** Asks the holders of {@code key}, each on its client's node; how many were asked. */
  int request(String key) {
    String what = "Asking the holders of '" + key + "' to release it";
    ZooKeeper zk = store.connected();
    try {
      LockQueue queue;
      try {
        queue = LockQueue.of(ZkCalls.await(ZkCalls.children(zk, paths.lockPath(key)), store.callTimeout(), what));
      } catch (KeeperException.NoNodeException free) {
        return 0;
      }
      int asked = 0;
      for (int i = 0; i < queue.size(); i++) {
        if (queue.holds(i)) {
          String ownerId = ownerIdOf(queue.name(i));
          if (curatorCompatible && ownerId.indexOf(':') < 0) {
            revokeAsCurator(zk, paths.lockPath(key) + "/" + queue.name(i), what);
          } else {
            send(zk, ownerId, key, what);
          }
          asked++;
        }
      }
      return asked;
    } catch (KeeperException e) {
      throw ZkErrors.translate(e, what);
    }
  }

  /** Sends a request to the client of {@code ownerId} if it listens, and waits until it has taken it. */
  private void send(ZooKeeper zk, String ownerId, String key, String what) throws KeeperException {
    String clientId = AcquireRequest.clientIdOf(ownerId);
    if (ZkCalls.await(ZkCalls.exists(zk, paths.lockPath(LISTENING_PREFIX + clientId)), store.callTimeout(), what)
        == null) {
      return; // it does not listen: nothing would take the request
    }
    String to = nodeOf(clientId) + "/r-";
    byte[] request = (ownerId + " " + key).getBytes(StandardCharsets.UTF_8);
    for (int attempt = 0; ; attempt++) {
      try {
        String sent = ZkCalls.await(ZkCalls.create(zk, to, request, store.acl(), CreateMode.EPHEMERAL_SEQUENTIAL),
            store.callTimeout(), what).path();
        awaitTaken(zk, sent);
        return;
      } catch (KeeperException.NoNodeException e) {
        if (attempt == 2) {
          throw e;
        }
        store.createParents(zk, to.substring(0, to.lastIndexOf('/')), what);
      }
    }
  }

  /**
   * Waits, at most a call's timeout, until the listening client has deleted the request at {@code sent}: it has read
   * it then. One not taken by then (a holder that crashed, whose session has not ended yet) goes with this session.
   */
  private void awaitTaken(ZooKeeper zk, String sent) {
    CompletableFuture<Void> taken = new CompletableFuture<>();
    zk.exists(sent, event -> {
      if (event.getType() == Watcher.Event.EventType.NodeDeleted) {
        taken.complete(null);
      }
    }, (rc, path, ctx, stat) -> {
      if (rc == KeeperException.Code.NONODE.intValue()) {
        taken.complete(null);
      }
    }, null);
    try {
      taken.get(store.callTimeout().toNanos(), TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (ExecutionException | TimeoutException notTakenInTime) {
      // Left to this session's end: the request was sent; the holder may not be alive to read it.
    }
  }

  /** Writes Curator's request on a Curator holder's node; one that went meanwhile needs none. */
  private void revokeAsCurator(ZooKeeper zk, String node, String what) throws KeeperException {
    CompletableFuture<Void> written = new CompletableFuture<>();
    zk.setData(node, CURATOR_REVOKE, -1, (rc, path, ctx, stat) -> {
      if (rc == KeeperException.Code.OK.intValue() || rc == KeeperException.Code.NONODE.intValue()) {
        written.complete(null);
      } else {
        written.completeExceptionally(KeeperException.create(KeeperException.Code.get(rc), path));
      }
    }, null);
    ZkCalls.await(written, store.callTimeout(), what);
  }

  /**
   * Compatible with Curator, watches {@code grant}'s own node for Curator's request ({@code Revoker.attemptRevoke}),
   * until the node goes; otherwise does nothing.
   */
  void watchForCuratorRevocation(ZkGrant grant) {
    if (curatorCompatible) {
      watchNode(store.connected(), grant);
    }
  }

  private void watchNode(ZooKeeper zk, ZkGrant grant) {
    Watcher changed = event -> {
      if (event.getType() == Watcher.Event.EventType.NodeDataChanged) {
        watchNode(zk, grant);
      }
    };
    zk.getData(grant.path(), changed, (rc, path, ctx, data, stat) -> {
      if (rc == KeeperException.Code.OK.intValue() && Arrays.equals(data, CURATOR_REVOKE)) {
        listener.requested(grant.request().key(), grant.request().ownerId());
      }
    }, null);
  }

  /** The owner id in a lock node's name: after the reserved prefix, up to the mark that follows it. */
  private static String ownerIdOf(String name) {
    String rest = name.substring(ZkPaths.RESERVED_PREFIX.length());
    int mark = rest.indexOf('-');
    return mark < 0 ? rest : rest.substring(0, mark);
  }

  /**
   * Watches the node of client {@code clientId} on the session now, unless it does already, and reads what is there.
   *
   * @throws KeeperException if ZooKeeper refused the watch
   */
  synchronized void listen(String clientId, String what) throws KeeperException {
    ZooKeeper zk = store.connected();
    if (zk == watched) {
      return;
    }
    String own = nodeOf(clientId);
    CompletableFuture<Void> added = new CompletableFuture<>();
    zk.addWatch(own, this::changed, AddWatchMode.PERSISTENT, (rc, path, ctx) -> {
      if (rc == KeeperException.Code.OK.intValue()) {
        added.complete(null);
      } else {
        added.completeExceptionally(KeeperException.create(KeeperException.Code.get(rc), path));
      }
    }, null);
    ZkCalls.await(added, store.callTimeout(), what);
    sayListening(zk, paths.lockPath(LISTENING_PREFIX + clientId), what);
    watched = zk;
    node = own;
    drain(zk, own);
  }

  /** Makes the ephemeral node that tells askers this client listens, and the base path above it if need be. */
  private void sayListening(ZooKeeper zk, String marker, String what) throws KeeperException {
    for (int attempt = 0; ; attempt++) {
      try {
        ZkCalls.await(ZkCalls.create(zk, marker, new byte[0], store.acl(), CreateMode.EPHEMERAL), store.callTimeout(),
            what);
        return;
      } catch (KeeperException.NodeExistsException e) {
        return; // made on this session before a reply was lost: it says the same
      } catch (KeeperException.NoNodeException e) {
        if (attempt == 2) {
          throw e;
        }
        store.createParents(zk, paths.namespace(), what);
      }
    }
  }

  private void changed(WatchedEvent event) {
    if (event.getType() == Watcher.Event.EventType.NodeCreated
        || event.getType() == Watcher.Event.EventType.NodeChildrenChanged) {
      ZooKeeper zk;
      String own;
      synchronized (this) {
        zk = watched;
        own = node;
      }
      drain(zk, own);
    }
  }

  /** Reads each request under {@code own}, tells the listener, and deletes it; asynchronously, on ZooKeeper's threads. */
  private void drain(ZooKeeper zk, String own) {
    zk.getChildren(own, false, (rc, path, ctx, children) -> {
      if (rc != KeeperException.Code.OK.intValue()) {
        return;
      }
      for (String child : children) {
        if (inFlight.add(child)) {
          String request = own + "/" + child;
          zk.getData(request, false, (dataRc, dataPath, dataCtx, data, stat) -> {
            if (dataRc == KeeperException.Code.OK.intValue()) {
              deliver(new String(data, StandardCharsets.UTF_8));
              zk.delete(request, -1, (deleteRc, deletePath, deleteCtx) -> inFlight.remove(child), null);
            } else {
              inFlight.remove(child);
            }
          }, null);
        }
      }
    }, null);
  }

  private void deliver(String request) {
    int space = request.indexOf(' ');
    if (space > 0) {
      listener.requested(request.substring(space + 1), request.substring(0, space));
    }
  }
}
