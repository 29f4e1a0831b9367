package dev.baton.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.Lease;
import dev.baton.LockClient;
import dev.baton.PermissionDeniedException;
import dev.baton.testkit.EmbeddedZooKeeperExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Digest auth trusts no path it did not close: a lock path that others may write (made before us with an open
 * ACL) would let them delete our lock node and plant one that poses as the holder, so it is refused.
 */
@Timeout(30)
class ZooKeeperAclTest {
  @RegisterExtension
  static final EmbeddedZooKeeperExtension zookeeper = new EmbeddedZooKeeperExtension();

  private static ZkInspector stranger;
  private final List<LockClient> clients = new ArrayList<>();

  @BeforeAll
  static void connectAStranger() {
    stranger = new ZkInspector(zookeeper.connectString());
  }

  @AfterAll
  static void disconnectTheStranger() throws InterruptedException {
    stranger.close();
  }

  @AfterEach
  void closeClients() {
    clients.forEach(LockClient::close);
  }

  private LockClient client(String user, String password) {
    LockClient client = ZooKeeperLockClient.builder().connectString(zookeeper.connectString()).namespace("/trap")
        .credentials(user, password).connect();
    clients.add(client);
    return client;
  }

  @Test
  void aLockPathThatOthersMayWriteIsRefusedAndLeftAsItWas() throws Exception {
    createOpen("/trap");
    createOpen("/trap/planted");
    LockClient alice = client("alice", "s3cret");
    assertThatThrownBy(() -> alice.lock("planted").acquire(Duration.ofSeconds(5)))
        .isInstanceOf(PermissionDeniedException.class)
        .hasMessageContainingAll("/trap/planted", "world:anyone");
    assertThat(stranger.zk().getChildren("/trap/planted", false)).as("no lock node of alice's left").isEmpty();
  }

  @Test
  void aLockPathAliceMadeIsHersAndOthersCanNeitherDeleteNorPlant() throws Exception {
    createOpen("/trap");
    LockClient alice = client("alice", "s3cret");
    try (Lease lease = alice.lock("own").acquire(Duration.ofSeconds(5))) {
      assertThatThrownBy(() -> stranger.zk().getChildren("/trap/own", false))
          .isInstanceOf(KeeperException.NoAuthException.class);
      assertThatThrownBy(() -> stranger.zk().create("/trap/own/_c_evil-lock-0000000000", new byte[0],
          ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.EPHEMERAL)).isInstanceOf(KeeperException.NoAuthException.class);
      assertThat(lease.isHeld()).isTrue();
    }
  }

  @Test
  void anotherUsersLockPathIsARefusalAtOnceNotAnOutage() throws Exception {
    createOpen("/trap");
    LockClient alice = client("alice", "s3cret");
    try (Lease held = alice.lock("shared").acquire(Duration.ofSeconds(5))) {
      LockClient bob = client("bob", "pw");
      assertThatThrownBy(() -> bob.lock("shared").acquire(Duration.ofSeconds(20)))
          .isInstanceOf(PermissionDeniedException.class)
          .hasMessageContaining("NOAUTH");
    }
  }

  private static void createOpen(String path) throws Exception {
    try {
      stranger.zk().create(path, new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
    } catch (KeeperException.NodeExistsException e) {
      // Made by an earlier test of the class.
    }
  }
}
