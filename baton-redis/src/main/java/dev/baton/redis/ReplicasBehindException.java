package dev.baton.redis;

import dev.baton.BackendUnavailableException;

/**
 * The master took a lock's write, but fewer replicas than asked for acknowledged it in time: a grant that does not
 * count, given back at once, and retried within the acquire's wait time as an unavailable store would be.
 */
final class ReplicasBehindException extends BackendUnavailableException {
  private static final long serialVersionUID = 1L;

  ReplicasBehindException(String message) {
    super(message);
  }
}
