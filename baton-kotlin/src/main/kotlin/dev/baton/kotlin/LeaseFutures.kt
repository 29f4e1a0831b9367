package dev.baton.kotlin

import dev.baton.Lease
import java.util.concurrent.CompletableFuture
import java.util.concurrent.CompletionException
import kotlin.coroutines.EmptyCoroutineContext
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.suspendCancellableCoroutine
import org.slf4j.LoggerFactory

private val log = LoggerFactory.getLogger("dev.baton.kotlin")

/**
 * Suspends until this acquire completes, without holding a thread. Cancelling the coroutine cancels the future,
 * which abandons the acquire at the store; a lease that was granted all the same, but whose coroutine was cancelled
 * before it could resume with it, is released in the background.
 */
internal suspend fun CompletableFuture<Lease>.awaitLease(): Lease = suspendCancellableCoroutine { continuation ->
  continuation.invokeOnCancellation { cancel(false) }
  whenComplete { lease, failure ->
    if (failure == null) {
      continuation.resume(lease) { _, granted, _ -> granted.releaseInBackground() }
    } else {
      continuation.resumeWith(Result.failure(if (failure is CompletionException) failure.cause ?: failure else failure))
    }
  }
}

/**
 * Releases this lease on [Dispatchers.IO] (a release is a call to the store), for the places that must not block or
 * suspend: a cancellation handler.
 */
internal fun Lease.releaseInBackground() {
  Dispatchers.IO.dispatch(EmptyCoroutineContext, Runnable {
    try {
      close()
    } catch (e: RuntimeException) {
      log.warn("The lease of '{}' granted to a cancelled coroutine could not be released: it expires within its ttl.",
          key(), e)
    }
  })
}
