package dev.baton.servers;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/** Stops child processes by their own pid, always within a bound, and never leaves one behind at JVM exit. */
public final class Processes {

  private Processes() {}

  /** Registers a shutdown hook that kills {@code process} if the JVM exits while it still runs. */
  public static Thread killOnExit(Process process, String what) {
    Thread hook = new Thread(process::destroyForcibly, "kill-" + what + "-on-exit");
    Runtime.getRuntime().addShutdownHook(hook);
    return hook;
  }

  /** Removes a hook from {@link #killOnExit} once its process is gone. */
  public static void forgetOnExit(Thread hook) {
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException shutdownInProgress) {
      // The JVM is exiting: the hook runs anyway and kills a process that is already gone.
    }
  }

  /** Asks the process to stop (SIGTERM), and kills it (SIGKILL) if it has not within {@code grace}. */
  public static void terminate(Process process, Duration grace, String what) {
    process.destroy();
    if (!awaitExit(process, grace)) {
      kill(process, grace, what);
    }
  }

  /** Kills the process (SIGKILL) and waits up to {@code bound} for it to be gone. */
  public static void kill(Process process, Duration bound, String what) {
    process.destroyForcibly();
    if (!awaitExit(process, bound)) {
      throw new IllegalStateException(what + " (pid " + process.pid() + ") is still alive " + bound.toMillis()
          + " ms after SIGKILL; kill it by hand: kill -9 " + process.pid());
    }
  }

  /**
   * Waits up to {@code bound} for the process to exit, through interrupts (a test that timed out still
   * has to stop its processes); the interrupt flag is set again afterwards.
   */
  private static boolean awaitExit(Process process, Duration bound) {
    long deadline = System.nanoTime() + bound.toNanos();
    boolean interrupted = false;
    try {
      while (true) {
        try {
          return process.waitFor(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
