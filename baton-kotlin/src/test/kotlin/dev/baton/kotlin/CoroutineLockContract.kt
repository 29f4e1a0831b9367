package dev.baton.kotlin

import dev.baton.LeaseState
import dev.baton.LockClient
import dev.baton.LockTimeoutException
import java.util.UUID
import java.util.concurrent.Executors
import java.util.concurrent.atomic.AtomicInteger
import kotlin.time.Duration
import kotlin.time.Duration.Companion.milliseconds
import kotlinx.coroutines.CompletableDeferred
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.asCoroutineDispatcher
import kotlinx.coroutines.awaitCancellation
import kotlinx.coroutines.cancelAndJoin
import kotlinx.coroutines.delay
import kotlinx.coroutines.flow.first
import kotlinx.coroutines.joinAll
import kotlinx.coroutines.launch
import kotlinx.coroutines.test.runTest
import kotlinx.coroutines.withContext
import kotlinx.coroutines.withTimeout
import org.assertj.core.api.Assertions.assertThat
import org.awaitility.Awaitility.await
import org.junit.jupiter.api.AfterEach
import org.junit.jupiter.api.BeforeEach
import org.junit.jupiter.api.Test

/**
 * What the coroutine API promises on every store: two clients of one store, as two instances of a service. Each store
 * runs it by naming how to connect.
 */
abstract class CoroutineLockContract {
  private lateinit var first: LockClient
  private lateinit var second: LockClient
  private val key = "kotlin-" + UUID.randomUUID()

  /** A new client of the store under test. */
  protected abstract fun connect(): LockClient

  @BeforeEach
  fun connectClients() {
    first = connect()
    second = connect()
  }

  @AfterEach
  fun closeClients() {
    second.close()
    first.close()
  }

  @Test
  fun withLockExcludesAcrossClientsAndCoroutines() = runTest {
    var counter = 0
    val inside = AtomicInteger()
    val most = AtomicInteger()
    withContext(Dispatchers.Default) {
      List(100) { i ->
        launch {
          (if (i % 2 == 0) first else second).lock(key).withLock {
            most.accumulateAndGet(inside.incrementAndGet(), ::maxOf)
            val read = counter
            delay(1)
            counter = read + 1
            inside.decrementAndGet()
          }
        }
      }.joinAll()
    }
    assertThat(counter).isEqualTo(100)
    assertThat(most.get()).isEqualTo(1)
    assertThat(first.status(key).isHeld).isFalse()
  }

  @Test
  fun aWaitThatEndsThrowsLockTimeoutException() = runTest {
    first.lock(key).acquire().use {
      assertThat(failureOf { second.lock(key).withLock(100.milliseconds) { "ran" } })
          .isInstanceOf(LockTimeoutException::class.java)
      assertThat(failureOf { second.lock(key).acquireAndAwait(java.time.Duration.ZERO) })
          .isInstanceOf(LockTimeoutException::class.java)
    }
    assertThat(second.lock(key).withLock(Duration.ZERO) { lease -> lease.key() }).isEqualTo(key)
  }

  @Test
  fun cancellingAWaitingCoroutineAbandonsTheAcquire() = runTest {
    val held = first.lock(key).acquire()
    val waiting = launch(Dispatchers.Default) { second.lock(key).withLock { error("granted after cancellation") } }
    await().atMost(java.time.Duration.ofSeconds(10)).until { first.status(key).waiters() == 1 }

    waiting.cancelAndJoin()

    await().atMost(java.time.Duration.ofSeconds(10)).until { first.status(key).waiters() == 0 }
    held.close()
    assertThat(first.status(key).isHeld).isFalse()
    await().atMost(java.time.Duration.ofSeconds(10)).until { second.keysInUse() == 0 }
  }

  @Test
  fun anExceptionInTheBlockReleases() = runTest {
    var granted: dev.baton.Lease? = null
    val failure = failureOf {
      first.lock(key).withLock { lease ->
        granted = lease
        throw IllegalStateException("the work failed")
      }
    }
    assertThat(failure).isInstanceOf(IllegalStateException::class.java).hasMessage("the work failed")
    assertThat(granted!!.state()).isEqualTo(LeaseState.RELEASED)
    assertThat(second.lock(key).withLock(Duration.ZERO) { "free" }).isEqualTo("free")
  }

  @Test
  fun cancellingTheBlockReleases() = runTest {
    val entered = CompletableDeferred<dev.baton.Lease>()
    val holding = launch(Dispatchers.Default) {
      first.lock(key).withLock { lease ->
        entered.complete(lease)
        awaitCancellation()
      }
    }
    val lease = entered.await()

    holding.cancelAndJoin()

    assertThat(lease.state()).isEqualTo(LeaseState.RELEASED)
    assertThat(first.status(key).isHeld).isFalse()
  }

  @Test
  fun theBlockResumesOnAnotherThreadAndStillReleases() = runTest {
    val elsewhere = Executors.newSingleThreadExecutor { Thread(it, "elsewhere") }.asCoroutineDispatcher()
    elsewhere.use {
      val lease = withContext(Dispatchers.Default) {
        first.lock(key).withLock { lease ->
          val acquiredOn = Thread.currentThread()
          val switchedTo = withContext(elsewhere) { Thread.currentThread() }
          assertThat(switchedTo).isNotSameAs(acquiredOn).extracting { it.name }.isEqualTo("elsewhere")
          assertThat(lease.isHeld).isTrue()
          lease
        }
      }
      assertThat(lease.state()).isEqualTo(LeaseState.RELEASED)
      assertThat(first.status(key).isHeld).isFalse()
    }
  }

  @Test
  fun readersShareAndAWriterWaitsForThem() = runTest {
    first.readWriteLock(key).withReadLock { reading ->
      assertThat(second.readWriteLock(key).withReadLock(Duration.ZERO) { it.isHeld }).isTrue()
      assertThat(failureOf { second.readWriteLock(key).withWriteLock(100.milliseconds) { "wrote" } })
          .isInstanceOf(LockTimeoutException::class.java)
      assertThat(reading.isHeld).isTrue()
    }
    assertThat(second.readWriteLock(key).withWriteLock(java.time.Duration.ZERO) { "wrote" }).isEqualTo("wrote")
  }

  @Test
  fun aSemaphoreGivesItsPermitsAndTimesOutPastThem() = runTest {
    first.semaphore(key, 2).acquireAndAwait().use {
      first.semaphore(key, 2).acquireAndAwait(java.time.Duration.ofSeconds(5)).use {
        assertThat(failureOf { second.semaphore(key, 2).withPermit(100.milliseconds) { "ran" } })
            .isInstanceOf(LockTimeoutException::class.java)
            .hasMessageContaining("semaphore '$key' (2 permits)")
        assertThat(failureOf { second.semaphore(key, 2).acquireAndAwait(Duration.ZERO) })
            .isInstanceOf(LockTimeoutException::class.java)
      }
      // The wait that timed out is abandoned at the store in the background, after the cancel that ended it: a try
      // before that would queue behind its entry.
      await().atMost(java.time.Duration.ofSeconds(10)).until { first.status(key).waiters() == 0 }
      assertThat(second.semaphore(key, 2).withPermit(Duration.ZERO) { it.isHeld }).isTrue()
    }
    assertThat(first.status(key).isHeld).isFalse()
  }

  @Test
  fun cancellingAWaitForAPermitAbandonsIt() = runTest {
    val held = first.semaphore(key, 1).acquire()
    val waiting = launch(Dispatchers.Default) {
      second.semaphore(key, 1).withPermit { error("granted after cancellation") }
    }
    await().atMost(java.time.Duration.ofSeconds(10)).until { first.status(key).waiters() == 1 }

    waiting.cancelAndJoin()

    await().atMost(java.time.Duration.ofSeconds(10)).until { first.status(key).waiters() == 0 }
    held.close()
    assertThat(first.status(key).isHeld).isFalse()
  }

  @Test
  fun aCandidateAwaitsItsTerm() = runTest {
    first.leadership(key).use { leader ->
      val term = leader.awaitTerm()
      assertThat(leader.isLeader).isTrue()
      second.leadership(key).use { next ->
        val nextTerm = withContext(Dispatchers.Default) {
          val waiting = launch { next.awaitTerm() }
          await().atMost(java.time.Duration.ofSeconds(10)).until { first.status(key).waiters() == 1 }
          assertThat(waiting.isActive).isTrue()
          leader.close()
          waiting.join()
          next.awaitTerm()
        }
        assertThat(nextTerm.fencingToken()).isGreaterThan(term.fencingToken())
      }
    }
  }

  @Test
  fun leadersFollowWhoLeadsWithoutStanding() = runTest {
    withContext(Dispatchers.Default) {
      withTimeout(10_000) {
        first.leaders(key).first { it == null }
        second.leadership(key).use { candidate ->
          val term = candidate.awaitTerm()
          val leader = first.leaders(key).first { it != null }!!
          assertThat(leader.fencingToken()).hasValue(term.fencingToken())
        }
        first.leaders(key).first { it == null }
        assertThat(first.status(key).isHeld).isFalse()
      }
    }
  }
}

/** The exception [block] ended with, or null. */
internal suspend fun failureOf(block: suspend () -> Any?): Throwable? =
    try {
      block()
      null
    } catch (e: Exception) {
      e
    }
