package dev.baton.kotlin

import dev.baton.Leadership
import dev.baton.LeadershipListener
import dev.baton.Lease
import dev.baton.LostReason
import java.util.concurrent.atomic.AtomicReference
import kotlinx.coroutines.CancellableContinuation
import kotlinx.coroutines.suspendCancellableCoroutine

/**
 * Suspends until this candidate leads, and returns its term; starts standing for election first if it was not
 * (as [Leadership.start]). Returns at once while it leads (a listener added then is told at once). No thread waits
 * meanwhile.
 *
 * Cancelling the coroutine stops the waiting, not the candidacy: the candidate stays in line, as the listener-based
 * API keeps it, until [Leadership.close]; a term it is then given is its own as for any candidate. The term ends as
 * [Lease.onLost] tells; after a revocation the candidate stands again, and a second call waits for its next term.
 *
 * @throws IllegalStateException if this candidacy was closed
 */
public suspend fun Leadership.awaitTerm(): Lease {
  start()
  return suspendCancellableCoroutine { continuation ->
    val waiter = TermWaiter(continuation)
    continuation.invokeOnCancellation { waiter.forget() }
    addListener(waiter)
  }
}

/** Resumes one waiting coroutine with the first term it is told of; then, or once forgotten, ignores what follows. */
private class TermWaiter(continuation: CancellableContinuation<Lease>) : LeadershipListener {
  private val waiting = AtomicReference(continuation)

  override fun elected(term: Lease) {
    waiting.getAndSet(null)?.resumeWith(Result.success(term))
  }

  override fun revoked(reason: LostReason) {
    // A waiter waits on: the candidate stands again, and the next election resumes it.
  }

  fun forget() {
    waiting.set(null)
  }
}
