package dev.baton.kotlin

import dev.baton.Lease
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.NonCancellable
import kotlinx.coroutines.withContext

/**
 * Releases this lease, as [Lease.close] does, without blocking the caller's thread, and even in a coroutine that is
 * being cancelled: the call to the store runs on [Dispatchers.IO] (a release is a round trip, which would block a
 * thread of [Dispatchers.Default] or a UI thread), and [NonCancellable], so that a cancelled coroutine still releases
 * what it holds before it ends instead of leaving the lock to its ttl. The lease is not bound to a thread: any
 * coroutine, on any thread, may release it. Does nothing if the lease is no longer held.
 *
 * @throws dev.baton.PermissionDeniedException if the store refused the release (see [Lease.close])
 */
public suspend fun Lease.release() {
  withContext(NonCancellable + Dispatchers.IO) { close() }
}

/**
 * Runs [block] with this lease and releases it afterwards, whether the block returns, throws or is cancelled; an
 * exception of the release itself is added to the block's as a suppressed one.
 */
internal suspend fun <T> Lease.releasing(block: suspend (Lease) -> T): T {
  val result = try {
    block(this)
  } catch (failure: Throwable) {
    try {
      release()
    } catch (releaseFailure: Throwable) {
      failure.addSuppressed(releaseFailure)
    }
    throw failure
  }
  release()
  return result
}
