package dev.baton.cli;

import dev.baton.embedded.EmbeddedZooKeeper;
import dev.baton.servers.EtcdServer;
import dev.baton.servers.RedisServer;
import java.io.IOException;
import java.io.OutputStream;

/**
 * The server a class-data training ({@link ClassDataTraining}) locks on, in a JVM of its own on the whole class path,
 * so that the training's class path, and its archive, need none of the server's classes: a redis-server or an etcd
 * where installed, else none (it then ends, having printed nothing), or an embedded ZooKeeper. Prints the server's
 * backend URI on one line, and stops the server when its standard input ends.
 */
public final class TrainingServer {
  private TrainingServer() {}

  /**
   * Starts a server of the store {@code args[0]} names ({@code redis}, {@code etcd} or {@code zookeeper}) until the
   * end of the standard input.
   *
   * @throws IllegalStateException if that store's server is not installed here
   */
  public static void main(String[] args) throws IOException {
    String store = args.length == 1 ? args[0] : "";
    switch (store) {
      case "redis" -> {
        RedisServer redis = new RedisServer();
        redis.start();
        try {
          serveUntilInputEnds(redis.uri());
        } finally {
          redis.stop();
        }
      }
      case "etcd" -> {
        try (EtcdServer etcd = new EtcdServer()) {
          etcd.start();
          serveUntilInputEnds("etcd://" + etcd.endpoint().replaceFirst("^https?://", ""));
        }
      }
      case "zookeeper" -> {
        try (EmbeddedZooKeeper zooKeeper = new EmbeddedZooKeeper()) {
          zooKeeper.start();
          serveUntilInputEnds("zookeeper://" + zooKeeper.connectString());
        }
      }
      default -> throw new IllegalArgumentException("usage: TrainingServer STORE, STORE one of redis, etcd or"
          + " zookeeper (got " + String.join(" ", args) + ")");
    }
  }

  private static void serveUntilInputEnds(String uri) throws IOException {
    System.out.println(uri);
    System.out.flush();
    System.in.transferTo(OutputStream.nullOutputStream());
  }
}
