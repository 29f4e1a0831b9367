package dev.baton.kotlin

import dev.baton.DistributedReadWriteLock
import dev.baton.Lease
import kotlin.time.Duration

/**
 * Runs [block] holding the read lock: shared with other readers, excluding writers. As [withLock] on
 * [DistributedReadWriteLock.readLock]; both sides are [dev.baton.DistributedLock]s, so [acquireAndAwait] takes either
 * side's lease for code that releases it itself.
 */
public suspend fun <T> DistributedReadWriteLock.withReadLock(
    wait: Duration? = null,
    block: suspend (Lease) -> T,
): T =
    readLock().withLock(wait, block)

/** As [withReadLock], waiting at most [wait]. */
public suspend fun <T> DistributedReadWriteLock.withReadLock(
    wait: java.time.Duration,
    block: suspend (Lease) -> T,
): T =
    readLock().withLock(wait, block)

/**
 * Runs [block] holding the write lock: alone, no reader or other writer. As [withLock] on
 * [DistributedReadWriteLock.writeLock].
 */
public suspend fun <T> DistributedReadWriteLock.withWriteLock(
    wait: Duration? = null,
    block: suspend (Lease) -> T,
): T =
    writeLock().withLock(wait, block)

/** As [withWriteLock], waiting at most [wait]. */
public suspend fun <T> DistributedReadWriteLock.withWriteLock(
    wait: java.time.Duration,
    block: suspend (Lease) -> T,
): T =
    writeLock().withLock(wait, block)
