package dev.baton.kotlin

import dev.baton.DistributedSemaphore
import dev.baton.Lease
import dev.baton.LockTimeoutException
import java.util.concurrent.CompletableFuture
import java.util.concurrent.TimeUnit
import java.util.concurrent.atomic.AtomicBoolean
import kotlin.coroutines.cancellation.CancellationException
import kotlin.time.Duration
import kotlin.time.toKotlinDuration
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.NonCancellable
import kotlinx.coroutines.currentCoroutineContext
import kotlinx.coroutines.ensureActive
import kotlinx.coroutines.isActive
import kotlinx.coroutines.withContext

/**
 * Takes a permit of this semaphore without blocking a thread: suspends until one is granted, as
 * [DistributedSemaphore.acquire] waits. Cancelling the coroutine abandons the acquire at the store, and releases a
 * permit granted while it was being cancelled. Release the lease with [Lease.release], or use [withPermit].
 *
 * @param wait how long to wait for a permit: [Duration.ZERO] tries once, [Duration.INFINITE] waits without limit;
 *   null waits as the handle's options say (by default, without limit). A wait time of the handle's options applies
 *   too: the shorter one ends the wait.
 * @throws LockTimeoutException if no permit was free within the wait time
 * @throws dev.baton.BackendUnavailableException if the store could not be reached in time
 * @throws IllegalStateException if the client is closed
 * @throws IllegalArgumentException if the wait is negative
 */
public suspend fun DistributedSemaphore.acquireAndAwait(wait: Duration? = null): Lease {
  val waitTime = wait?.toWaitTime()
  return if (wait == null || waitTime == null) acquireAsync().awaitLease() else acquireAndAwait(waitTime)
}

/** As [acquireAndAwait], waiting at most [wait] ([java.time.Duration.ZERO]: try once). */
public suspend fun DistributedSemaphore.acquireAndAwait(wait: java.time.Duration): Lease {
  require(!wait.isNegative) {
    "The wait time must not be negative, but was $wait: use Duration.ZERO to try once."
  }
  return if (wait.isZero) tryOnce() else acquireWithin(wait)
}

/**
 * Runs [block] holding a permit of this semaphore, as [Semaphore.withPermit][kotlinx.coroutines.sync.withPermit] does
 * for a semaphore of the process: acquires it as [acquireAndAwait] does, and releases it when the block returns, throws
 * or is cancelled. The block may suspend, and resume on another thread: the permit goes with it.
 *
 * @throws LockTimeoutException if no permit was free within the wait time; the block did not run
 */
public suspend fun <T> DistributedSemaphore.withPermit(wait: Duration? = null, block: suspend (Lease) -> T): T =
    acquireAndAwait(wait).releasing(block)

/** As [withPermit], waiting at most [wait] ([java.time.Duration.ZERO]: try once). */
public suspend fun <T> DistributedSemaphore.withPermit(wait: java.time.Duration, block: suspend (Lease) -> T): T =
    acquireAndAwait(wait).releasing(block)

/**
 * One try, a call to the store, on [Dispatchers.IO]; [NonCancellable] so that a permit it takes is never dropped
 * between the call and the coroutine: a coroutine cancelled meanwhile releases it.
 */
private suspend fun DistributedSemaphore.tryOnce(): Lease {
  val lease = withContext(NonCancellable + Dispatchers.IO) { tryAcquire() }
      .orElseThrow { timeout(java.time.Duration.ZERO) }
  try {
    currentCoroutineContext().ensureActive()
  } catch (cancelled: CancellationException) {
    lease.releaseInBackground()
    throw cancelled
  }
  return lease
}

/**
 * Waits for a permit, and cancels the acquire (which abandons it at the store) when [wait] has passed. The timer runs
 * in real time, as the store's wait does, also under a test dispatcher's virtual time.
 */
private suspend fun DistributedSemaphore.acquireWithin(wait: java.time.Duration): Lease {
  val acquire = acquireAsync()
  val timedOut = AtomicBoolean()
  val timer = CompletableFuture<Unit>().completeOnTimeout(Unit, wait.toNanos(), TimeUnit.NANOSECONDS)
  timer.thenRun {
    timedOut.set(true)
    acquire.cancel(false)
  }
  acquire.whenComplete { _, _ -> timer.cancel(false) }
  try {
    return acquire.awaitLease()
  } catch (cancelled: CancellationException) {
    if (timedOut.get() && acquire.isCancelled && currentCoroutineContext().isActive) {
      throw timeout(wait)
    }
    throw cancelled
  }
}

private fun DistributedSemaphore.timeout(wait: java.time.Duration) = LockTimeoutException(
    "No permit of semaphore '${key()}' (${permits()} permits) was free within ${wait.toKotlinDuration()}: they are" +
        " all held. Wait longer, or retry later.")
