package dev.baton.zookeeper;

import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooKeeper;

/** Creates the chroot of a connect string ({@code host:port/chroot}) before a session is opened inside it. */
final class Chroot {
  private Chroot() {}

  static void ensureExists(ZooKeeperSettings settings) {
    String connectString = settings.connectString();
    int slash = connectString.indexOf('/');
    if (slash < 0 || slash == connectString.length() - 1) {
      return;
    }
    String chroot = ZkPaths.checkPath("chroot", connectString.substring(slash));
    ZooKeeperSession bootstrap = ZooKeeperSession.open(connectString.substring(0, slash), settings.sessionTimeout(),
        settings.connectTimeout(), settings.digest(), () -> { });
    try {
      ZooKeeper zk = bootstrap.connected();
      for (int next = chroot.indexOf('/', 1); ; next = chroot.indexOf('/', next + 1)) {
        String path = next < 0 ? chroot : chroot.substring(0, next);
        try {
          ZkCalls.await(ZkCalls.create(zk, path, new byte[0], settings.acl(), CreateMode.PERSISTENT), bootstrap.timeout(),
              "Creating the chroot " + chroot);
        } catch (KeeperException.NodeExistsException e) {
          // Already there.
        }
        if (next < 0) {
          break;
        }
      }
    } catch (KeeperException e) {
      throw ZkErrors.translate(e, "Creating the chroot " + chroot);
    } finally {
      bootstrap.close();
    }
  }
}
