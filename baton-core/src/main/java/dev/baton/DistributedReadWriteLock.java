package dev.baton;

import java.util.concurrent.locks.ReadWriteLock;

/**
 * A named read-write lock shared by every process that uses the same store and key: any number of readers at once,
 * or one writer.
 *
 * <ul>
 *   <li><b>Fair.</b> Readers and writers queue in order of arrival at the store. A waiting writer holds back the
 *       readers that come after it, so a stream of readers cannot starve it.
 *   <li><b>Fenced.</b> Every reader and writer gets a fencing token; a writer's token is larger than every token
 *       granted before it on the key, readers' included.
 *   <li><b>One key, one lock.</b> The write lock is the key's exclusive lock: {@link LockClient#lock(String)} on the
 *       same key excludes readers and writers alike, and is reentrant with the write lock in one thread.
 *   <li><b>The {@link java.util.concurrent.locks.Lock} views</b> are reentrant per thread. A thread that holds the
 *       write lock may take the read lock too (a downgrade); it keeps the key to itself until it has released both.
 *       A thread that holds only the read lock and asks for the write lock gets an
 *       {@link IllegalMonitorStateException} at once, never a deadlock.
 *   <li><b>Leases</b> ({@link DistributedLock#acquire()} on either side) are not reentrant, as for a mutex; each
 *       read lease is an entry of its own at the store, renewed, timed and reported lost as a mutex's lease is.
 * </ul>
 */
public interface DistributedReadWriteLock extends ReadWriteLock {

  /** The key this handle locks. */
  String key();

  /** The shared side: held by any number of readers while no writer holds or waits ahead of them. */
  @Override
  DistributedLock readLock();

  /** The exclusive side: held by one writer while no one else holds. */
  @Override
  DistributedLock writeLock();
}
