package dev.baton.servers;

import dev.baton.embedded.internal.Loopback;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * One etcd member's name and loopback ports, and the command line that runs it, tuned for tests: a 50 ms
 * heartbeat and a 500 ms election timeout (a lost leader is replaced within about a second), pre-vote (a
 * member that rejoins does not depose a healthy leader), and logs at info level on standard error, where the
 * line saying it serves clients appears.
 *
 * @param name the member's name in the cluster, e.g. {@code m0}
 * @param clientPort where it serves clients (gRPC and the JSON gateway)
 * @param peerPort where it talks to the other members
 * @param tls the certificates it serves clients with over TLS, asking them for theirs; null for plain HTTP
 */
record EtcdMember(String name, int clientPort, int peerPort, TlsCertificates tls) {
  /** How often the leader sends heartbeats. */
  static final Duration HEARTBEAT_INTERVAL = Duration.ofMillis(50);
  /** How long a follower waits without a heartbeat before it calls an election (etcd randomizes up to twice). */
  static final Duration ELECTION_TIMEOUT = Duration.ofMillis(500);

  /** {@code http://127.0.0.1:CLIENTPORT}, or {@code https://} with TLS. */
  String clientUrl() {
    return (tls == null ? "http://" : "https://") + Loopback.HOST + ":" + clientPort;
  }

  /** {@code http://127.0.0.1:PEERPORT}. */
  String peerUrl() {
    return "http://" + Loopback.HOST + ":" + peerPort;
  }

  /**
   * The command that runs this member of {@code cluster} over {@code dataDir}. The same command also restarts it
   * over its existing data: etcd then ignores the {@code --initial-*} flags and rejoins from what the data says.
   *
   * @param token unique per cluster, so that members of two clusters never take each other for peers
   */
  List<String> command(Path binary, Path dataDir, List<EtcdMember> cluster, String token) {
    String initialCluster = cluster.stream()
        .map(member -> member.name() + "=" + member.peerUrl())
        .collect(Collectors.joining(","));
    List<String> command = new ArrayList<>(List.of(
        binary.toString(),
        "--name", name,
        "--data-dir", dataDir.toString(),
        "--listen-client-urls", clientUrl(),
        "--advertise-client-urls", clientUrl(),
        "--listen-peer-urls", peerUrl(),
        "--initial-advertise-peer-urls", peerUrl(),
        "--initial-cluster", initialCluster,
        "--initial-cluster-state", "new",
        "--initial-cluster-token", token,
        "--heartbeat-interval", Long.toString(HEARTBEAT_INTERVAL.toMillis()),
        "--election-timeout", Long.toString(ELECTION_TIMEOUT.toMillis()),
        "--pre-vote=true",
        "--logger", "zap",
        "--log-outputs", "stderr",
        "--log-level", "info"));
    if (tls != null) {
      command.addAll(List.of(
          "--cert-file", tls.serverCertificate().toString(),
          "--key-file", tls.serverKey().toString(),
          "--trusted-ca-file", tls.ca().toString(),
          "--client-cert-auth"));
    }
    return command;
  }
}
