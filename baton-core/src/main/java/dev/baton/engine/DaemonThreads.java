package dev.baton.engine;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/** Names background threads after what they do and the client they serve, and makes them daemons. */
final class DaemonThreads implements ThreadFactory {
  private final String prefix;
  private final AtomicInteger count = new AtomicInteger();

  DaemonThreads(String purpose, String clientId) {
    this.prefix = "baton-" + purpose + "-" + clientId;
  }

  @Override
  public Thread newThread(Runnable task) {
    Thread thread = new Thread(task, prefix + "-" + count.incrementAndGet());
    thread.setDaemon(true);
    return thread;
  }
}
