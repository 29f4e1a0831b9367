package dev.baton;

import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Who leads a {@link Leadership} name now, as the store says: the holder of the name's lock. Two readings name the
 * same term when their owner and fencing token are equal ({@link #equals}).
 */
public final class Leader {
  private final String key;
  private final String ownerId;
  private final OptionalLong fencingToken;
  private final LockHolder holder;

  private Leader(String key, String ownerId, OptionalLong fencingToken, LockHolder holder) {
    this.key = key;
    this.ownerId = ownerId;
    this.fencingToken = fencingToken;
    this.holder = holder;
  }

  /** The leader that {@code status} of a leadership's key describes; empty if nobody holds the key. */
  public static Optional<Leader> of(LockStatus status) {
    Objects.requireNonNull(status, "status");
    if (!status.isHeld() || status.ownerId().isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(new Leader(status.key(), status.ownerId().get(), status.fencingToken(),
        status.holder().orElse(null)));
  }

  /** The leadership's name. */
  public String key() {
    return key;
  }

  /** The leading client's owner id ({@link Lease#ownerId()} of its term). */
  public String ownerId() {
    return ownerId;
  }

  /**
   * The term's fencing token ({@link Lease#fencingToken()}): a later term's is larger. Empty for a term held by
   * another library in a compatibility mode whose entries carry none.
   */
  public OptionalLong fencingToken() {
    return fencingToken;
  }

  /** Where the leader runs (host, pid, thread) and since when, where the store's entry says. */
  public Optional<LockHolder> holder() {
    return Optional.ofNullable(holder);
  }

  /** Same key, owner and fencing token: the same term. */
  @Override
  public boolean equals(Object o) {
    return o instanceof Leader other && key.equals(other.key) && ownerId.equals(other.ownerId)
        && fencingToken.equals(other.fencingToken);
  }

  @Override
  public int hashCode() {
    return Objects.hash(key, ownerId, fencingToken);
  }

  @Override
  public String toString() {
    return "Leader{key='" + key + "', owner=" + ownerId
        + (fencingToken.isPresent() ? ", fencingToken=" + fencingToken.getAsLong() : "")
        + (holder != null ? ", holder=" + holder : "") + "}";
  }
}
