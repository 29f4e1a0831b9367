package dev.baton.etcd;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** Reads one etcd member's Prometheus metrics (its {@code /metrics} page on the client port), e.g. how many watchers it has. */
final class EtcdMetrics {
  private static final int TIMEOUT_MILLIS = 2_000;

  private final String endpoint;

  EtcdMetrics(String endpoint) {
    this.endpoint = endpoint;
  }

  /** How many watchers the member serves now, over all watch streams. */
  long watchers() {
    return sum("etcd_debugging_mvcc_watcher_total");
  }

  /** How many watch streams the member serves now. */
  long watchStreams() {
    return sum("etcd_debugging_mvcc_watch_stream_total");
  }

  /** How many calls of a KV method (e.g. {@code Txn}, {@code Range}) the member has started. */
  long calls(String method) {
    return sum("grpc_server_started_total", "grpc_method=\"" + method + "\"", "grpc_service=\"etcdserverpb.KV\"");
  }

  /** How many calls of a Lease method (e.g. {@code LeaseTimeToLive}) the member has started. */
  long leaseCalls(String method) {
    return sum("grpc_server_started_total", "grpc_method=\"" + method + "\"", "grpc_service=\"etcdserverpb.Lease\"");
  }

  /** The sum of the samples of {@code metric} whose labels contain every one of {@code labels}. */
  long sum(String metric, String... labels) {
    return page().lines()
        .filter(line -> line.startsWith(metric + " ") || line.startsWith(metric + "{"))
        .filter(line -> Arrays.stream(labels).allMatch(line::contains))
        .mapToLong(line -> (long) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
        .sum();
  }

  private String page() {
    try {
      HttpURLConnection connection = (HttpURLConnection) URI.create(endpoint + "/metrics").toURL().openConnection();
      connection.setConnectTimeout(TIMEOUT_MILLIS);
      connection.setReadTimeout(TIMEOUT_MILLIS);
      try (InputStream in = connection.getInputStream()) {
        return new String(in.readAllBytes(), StandardCharsets.UTF_8);
      } finally {
        connection.disconnect();
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read the metrics of etcd at " + endpoint, e);
    }
  }
}
