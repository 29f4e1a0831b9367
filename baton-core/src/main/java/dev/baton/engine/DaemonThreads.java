package dev.baton.engine;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Names background threads after what they do and the client they serve, and makes them daemons. Knows its own
 * threads, so that closing the client from one of them (a listener that closes it) neither waits for that thread to
 * end nor interrupts it.
 */
final class DaemonThreads implements ThreadFactory {
  private final String prefix;
  private final AtomicInteger count = new AtomicInteger();
  private final Set<Thread> running = ConcurrentHashMap.newKeySet();

  DaemonThreads(String purpose, String clientId) {
    this.prefix = "baton-" + purpose + "-" + clientId;
  }

  @Override
  public Thread newThread(Runnable task) {
    Thread thread = new Thread(() -> runAsOurs(task), prefix + "-" + count.incrementAndGet());
    thread.setDaemon(true);
    return thread;
  }

  /** Whether the calling thread is one this factory made. */
  boolean madeCurrentThread() {
    return running.contains(Thread.currentThread());
  }

  private void runAsOurs(Runnable task) {
    running.add(Thread.currentThread());
    try {
      task.run();
    } finally {
      running.remove(Thread.currentThread());
    }
  }
}
