package dev.baton.zookeeper;

import dev.baton.BackendUnavailableException;
import dev.baton.LockException;
import dev.baton.PermissionDeniedException;
import org.apache.zookeeper.KeeperException;

/** Turns ZooKeeper's errors into Baton's, naming what failed. */
final class ZkErrors {
  private ZkErrors() {}

  static RuntimeException translate(KeeperException e, String what) {
    return switch (e.code()) {
      case NOAUTH, AUTHFAILED -> new PermissionDeniedException(what + " was refused by ZooKeeper (" + e.code()
          + "): check the client's digest credentials (BATON_USER and BATON_PASSWORD, or the builder's credentials)"
          + " and the ACL of the namespace and the key's parents.", e);
      case INVALIDACL -> new LockException(what + " was refused by ZooKeeper (" + e.code()
          + "): the ACL set on the builder is not one ZooKeeper accepts.", e);
      default -> new BackendUnavailableException(what + " failed on ZooKeeper: " + e.getMessage(), e);
    };
  }

  static BackendUnavailableException interrupted(String what, InterruptedException e) {
    Thread.currentThread().interrupt();
    return new BackendUnavailableException(what + " was interrupted while waiting for ZooKeeper", e);
  }
}
