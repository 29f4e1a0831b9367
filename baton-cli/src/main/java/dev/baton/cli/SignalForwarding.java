package dev.baton.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * Catches SIGHUP, SIGINT and SIGTERM while {@code baton exec} runs, instead of letting the JVM exit with the
 * lock held and the command running, and hands each one to whoever should act on it: first the pending
 * acquisition, later the command. A target set after a signal arrived is given the first one at once, so
 * that a signal arriving between two targets is not lost.
 */
final class SignalForwarding implements AutoCloseable {

  /** The signals baton passes on, with their numbers, which are the same on every Unix. */
  enum Forwarded {
    HUP(1), INT(2), TERM(15);

    private final int number;

    Forwarded(int number) {
      this.number = number;
    }

    /** The exit status of a process that this signal killed, as shells report it: 128 + its number. */
    int exitStatus() {
      return 128 + number;
    }
  }

  private final ReentrantLock lock = new ReentrantLock();
  private final List<Runnable> restores = new ArrayList<>();
  private Consumer<Forwarded> target = signal -> {};
  private Forwarded first;

  private SignalForwarding() {}

  /**
   * Replaces the JVM's handlers of the forwarded signals until {@link #close()}. A signal the JVM may not
   * handle (it runs with {@code -Xrs}, or the signal was ignored when it started, as under nohup) keeps its
   * old disposition.
   */
  static SignalForwarding install() {
    SignalForwarding forwarding = new SignalForwarding();
    for (Forwarded forwarded : Forwarded.values()) {
      Signal signal = new Signal(forwarded.name());
      try {
        SignalHandler previous = Signal.handle(signal, caught -> forwarding.received(forwarded));
        forwarding.restores.add(() -> Signal.handle(signal, previous));
      } catch (IllegalArgumentException reservedByTheJvm) {
        // Left as it was: the JVM reacts to it itself.
      }
    }
    return forwarding;
  }

  /** The first signal received, if any. */
  Optional<Forwarded> first() {
    lock.lock();
    try {
      return Optional.ofNullable(first);
    } finally {
      lock.unlock();
    }
  }

  /** Sends the signals received from now on to {@code target}; if one came before, the first goes to it now. */
  void sendTo(Consumer<Forwarded> target) {
    lock.lock();
    try {
      this.target = target;
      if (first != null) {
        target.accept(first);
      }
    } finally {
      lock.unlock();
    }
  }

  /** Puts the JVM's own handlers back. */
  @Override
  public void close() {
    restores.forEach(Runnable::run);
  }

  private void received(Forwarded signal) {
    lock.lock();
    try {
      if (first == null) {
        first = signal;
      }
      target.accept(signal);
    } finally {
      lock.unlock();
    }
  }
}
