package dev.baton.cli;

import java.security.NoSuchAlgorithmException;
import javax.net.ssl.SSLContext;

/**
 * Starts the JVM's default TLS context on a thread of its own as soon as baton starts, for a command line that names a
 * ZooKeeper store. ZooKeeper's client asks for that context as its classes initialize, to choose a TLS version even
 * for a plain connection, and making it reads and parses the JDK's trust store: about a hundred milliseconds, the
 * largest share of a ZooKeeper exec's start, which the main thread would otherwise spend in the middle of the client's
 * setup. Started first, it runs beside picocli's parse and the engine's setup, on the machine's other core. It touches
 * the JDK alone, never a logger: slf4j's configuration is read once, after the command line is parsed.
 */
final class TlsContextWarmUp {
  private TlsContextWarmUp() {}

  /** Starts the warm-up if {@code args}, or {@code $BATON_BACKEND}, name a ZooKeeper store; else does nothing. */
  static void startFor(String[] args) {
    if (!namesZooKeeper(args, System.getenv(Backends.ENV))) {
      return;
    }
    Thread warmUp = new Thread(TlsContextWarmUp::makeDefaultContext, "baton-tls-warm-up");
    warmUp.setDaemon(true);
    warmUp.start();
  }

  /**
   * Whether a word of the command line, or the environment's backend, is a ZooKeeper address: a word of the command
   * that exec runs may be one too, which then costs a thread's work and nothing else.
   */
  static boolean namesZooKeeper(String[] args, String environmentBackend) {
    if (isZooKeeper(environmentBackend)) {
      return true;
    }
    for (String word : args) {
      if (isZooKeeper(word)) {
        return true;
      }
    }
    return false;
  }

  private static boolean isZooKeeper(String word) {
    return word != null && (word.contains("zookeeper://") || word.contains("zk://"));
  }

  private static void makeDefaultContext() {
    try {
      SSLContext.getDefault().getSupportedSSLParameters();
    } catch (NoSuchAlgorithmException | RuntimeException e) {
      // ZooKeeper's client meets the same failure itself, and handles it, when it asks.
    }
  }
}
