package dev.baton;

/** Told when a {@link Leadership} candidate is elected and when it loses its term. */
public interface LeadershipListener {

  /** This candidate leads, in {@code term}, until the lease ends: {@code term.fencingToken()} fences its work. */
  void elected(Lease term);

  /** The term ended without a resignation: stop leading at once; the candidate stands again. */
  void revoked(LostReason reason);
}
