package dev.baton.kotlin

import dev.baton.LeaseState
import dev.baton.LockClient
import dev.baton.memory.MemoryLockClient
import java.util.concurrent.CompletableFuture
import kotlinx.coroutines.CoroutineStart
import kotlinx.coroutines.cancelAndJoin
import kotlinx.coroutines.launch
import kotlinx.coroutines.test.runTest
import org.assertj.core.api.Assertions.assertThat
import org.awaitility.Awaitility.await
import org.junit.jupiter.api.Test

class MemoryCoroutineLockTest : CoroutineLockContract() {
  private val store = "kotlin-" + System.nanoTime()

  override fun connect(): LockClient = MemoryLockClient.connect("memory://$store")

  @Test
  fun aLeaseGrantedToACancelledCoroutineIsReleased() = runTest {
    MemoryLockClient.connect("memory://$store").use { client ->
      val granted = client.lock("granted-late").acquire()
      val acquire = CompletableFuture<dev.baton.Lease>()
      val waiting = launch(start = CoroutineStart.UNDISPATCHED) { acquire.awaitLease() }

      acquire.complete(granted)
      waiting.cancelAndJoin()
      assertThat(waiting.isCancelled).isTrue()

      await().atMost(java.time.Duration.ofSeconds(10)).until { granted.state() == LeaseState.RELEASED }
      assertThat(client.status("granted-late").isHeld).isFalse()
    }
  }
}
