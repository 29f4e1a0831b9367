package dev.baton.kotlin

import dev.baton.LockClient
import dev.baton.testkit.EmbeddedZooKeeperExtension
import dev.baton.zookeeper.ZooKeeperLockClient
import org.junit.jupiter.api.extension.RegisterExtension

class ZooKeeperCoroutineLockTest : CoroutineLockContract() {
  override fun connect(): LockClient = ZooKeeperLockClient.connect(zooKeeper.connectString())

  companion object {
    @JvmField @RegisterExtension val zooKeeper = EmbeddedZooKeeperExtension()
  }
}
