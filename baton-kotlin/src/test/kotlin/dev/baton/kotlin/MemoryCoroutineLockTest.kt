package dev.baton.kotlin

import dev.baton.LeaseState
import dev.baton.LockClient
import dev.baton.LockOptions
import dev.baton.memory.MemoryLockClient
import java.util.concurrent.CompletableFuture
import kotlin.time.Duration
import kotlin.time.Duration.Companion.seconds
import kotlinx.coroutines.CoroutineStart
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.async
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
  fun aNegativeWaitIsRefusedWithWhatToUse() = runTest {
    MemoryLockClient.connect("memory://$store").use { client ->
      assertThat(failureOf { client.lock("bad-wait").acquireAndAwait((-1).seconds) })
          .isInstanceOf(IllegalArgumentException::class.java)
          .hasMessageContaining("-1s")
          .hasMessageContaining("Duration.ZERO")
      assertThat(failureOf { client.semaphore("bad-wait", 2).withPermit(java.time.Duration.ofMillis(-5)) { "ran" } })
          .isInstanceOf(IllegalArgumentException::class.java)
          .hasMessageContaining("PT-0.005S")
      assertThat(failureOf { client.lock("bad-wait").withLock(java.time.Duration.ofMillis(-5)) { "ran" } })
          .isInstanceOf(IllegalArgumentException::class.java)
          .hasMessageContaining("waitTime")
    }
  }

  @Test
  fun anInfiniteWaitOverridesTheHandlesWaitTime() = runTest {
    MemoryLockClient.connect("memory://$store").use { holder ->
      MemoryLockClient.connect("memory://$store").use { client ->
        val waitingBriefly = LockOptions.defaults().withWaitTime(java.time.Duration.ZERO)
        val held = holder.lock("infinite").acquire()
        val waiting = async(Dispatchers.Default) {
          client.lock("infinite", waitingBriefly).withLock(Duration.INFINITE) { it.isHeld }
        }
        await().atMost(java.time.Duration.ofSeconds(10)).until { holder.status("infinite").waiters() == 1 }
        held.close()
        assertThat(waiting.await()).isTrue()
      }
    }
  }

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
