package dev.baton.kotlin

import dev.baton.LockClient
import dev.baton.redis.RedisLockClient
import dev.baton.testkit.RedisServerExtension
import org.junit.jupiter.api.extension.RegisterExtension

class RedisCoroutineLockTest : CoroutineLockContract() {
  override fun connect(): LockClient = RedisLockClient.connect(redis.uri())

  companion object {
    @JvmField @RegisterExtension val redis = RedisServerExtension()
  }
}
