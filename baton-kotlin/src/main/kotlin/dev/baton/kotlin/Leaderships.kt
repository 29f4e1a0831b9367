package dev.baton.kotlin

import dev.baton.Leader
import dev.baton.Leadership
import dev.baton.LeadershipListener
import dev.baton.Lease
import dev.baton.LockClient
import dev.baton.LostReason
import java.util.concurrent.atomic.AtomicReference
import kotlinx.coroutines.CancellableContinuation
import kotlinx.coroutines.channels.awaitClose
import kotlinx.coroutines.flow.Flow
import kotlinx.coroutines.flow.callbackFlow
import kotlinx.coroutines.flow.conflate
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

/**
 * Who leads the leadership named [key], without standing, as a cold [Flow]: each collection opens a watch
 * ([LockClient.watchLeadership]) that emits the leader once read (null: nobody leads), then each change; cancelling
 * the collection closes the watch. A collector slower than the changes sees the latest leader (the flow is
 * conflated): who leads now matters, not every term in between.
 *
 * @throws IllegalArgumentException if the key is not acceptable, when collected
 */
public fun LockClient.leaders(key: String): Flow<Leader?> = callbackFlow {
  val watch = watchLeadership(key) { leader -> trySend(leader.orElse(null)) }
  awaitClose { watch.close() }
}.conflate()
