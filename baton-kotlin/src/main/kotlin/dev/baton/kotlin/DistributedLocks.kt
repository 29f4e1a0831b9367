package dev.baton.kotlin

import dev.baton.DistributedLock
import dev.baton.Lease
import kotlin.time.Duration

/**
 * Acquires this lock without blocking a thread: suspends until the lease is granted, as [DistributedLock.acquire]
 * waits.
 *
 * Cancelling the coroutine abandons the acquire at the store, and releases a lease granted while it was being
 * cancelled. The lease is not bound to the coroutine's thread: release it from anywhere, preferably with
 * [Lease.release], or use [withLock], which releases it for you. (The [java.util.concurrent.locks.Lock] methods of the
 * handle, `lock()` and `unlock()`, are bound to a thread and block it: not for coroutines.)
 *
 * @param wait how long to wait for another holder: [Duration.ZERO] tries once, [Duration.INFINITE] waits without
 *   limit; null waits as the handle's options say (by default, without limit)
 * @throws dev.baton.LockTimeoutException if the wait time passed first
 * @throws dev.baton.BackendUnavailableException if the store could not be reached in time
 * @throws IllegalStateException if the client is closed
 * @throws IllegalArgumentException if the wait is negative or longer than 365 days
 */
public suspend fun DistributedLock.acquireAndAwait(wait: Duration? = null): Lease =
    (if (wait == null) acquireAsync() else acquireAsync(options().withWaitTime(wait.toWaitTime()))).awaitLease()

/** As [acquireAndAwait], waiting at most [wait] ([java.time.Duration.ZERO]: try once). */
public suspend fun DistributedLock.acquireAndAwait(wait: java.time.Duration): Lease =
    acquireAsync(options().withWaitTime(wait)).awaitLease()

/**
 * Runs [block] holding this lock, as [Mutex.withLock][kotlinx.coroutines.sync.withLock] does for a mutex of the
 * process: acquires it as [acquireAndAwait] does, and releases it when the block returns, throws or is cancelled, as
 * [Lease.release] does. The block may suspend, and resume on another thread: the lease goes with it.
 *
 * ```
 * val total = lock.withLock(5.seconds) { lease -> ledger.add(order, lease.fencingToken()) }
 * ```
 *
 * @param wait as for [acquireAndAwait]: null waits as the handle's options say
 * @return what the block returned
 * @throws dev.baton.LockTimeoutException if the lock was not acquired within the wait time; the block did not run
 */
public suspend fun <T> DistributedLock.withLock(wait: Duration? = null, block: suspend (Lease) -> T): T =
    acquireAndAwait(wait).releasing(block)

/** As [withLock], waiting at most [wait] ([java.time.Duration.ZERO]: try once). */
public suspend fun <T> DistributedLock.withLock(wait: java.time.Duration, block: suspend (Lease) -> T): T =
    acquireAndAwait(wait).releasing(block)
