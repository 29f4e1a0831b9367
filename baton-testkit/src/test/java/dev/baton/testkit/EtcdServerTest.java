package dev.baton.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.embedded.internal.Loopback;
import dev.baton.servers.EtcdHttp;
import dev.baton.servers.EtcdServer;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Starting, restarting, killing and stopping a real single-member etcd. */
class EtcdServerTest {
  private static final Duration CALL = Duration.ofSeconds(5);

  private final EtcdServer server = new EtcdServer();

  @AfterEach
  void stopServer() {
    server.close();
  }

  @Test
  @Timeout(30)
  void startsServesAndStopsWithoutLeavingAProcessOrAPort() throws Exception {
    server.start();
    assertThat(server.isRunning()).isTrue();
    assertThat(server.endpoint()).isEqualTo("http://127.0.0.1:" + server.clientPort());
    assertThat(EtcdHttp.isHealthy(server.clientPort(), CALL)).isTrue();
    EtcdHttp.put(server.clientPort(), "greeting", "hello", CALL);
    assertThat(EtcdHttp.get(server.clientPort(), "greeting", CALL)).hasValue("hello");
    assertThat(EtcdHttp.get(server.clientPort(), "nothing", CALL)).isEmpty();
    long pid = server.pid();

    server.stop();

    assertThat(server.isRunning()).isFalse();
    assertThat(ProcessHandle.of(pid).filter(ProcessHandle::isAlive)).isEmpty();
    assertThat(Loopback.isListening(server.clientPort())).isFalse();
    assertThat(Loopback.isListening(server.peerPort())).isFalse();
  }

  @Test
  @Timeout(30)
  void restartKeepsThePortsTheKeysAndTheLeases() throws Exception {
    server.start();
    int port = server.clientPort();
    long pid = server.pid();
    String lease = EtcdHttp.grantLease(port, 600, CALL);
    EtcdHttp.put(port, "survivor", "yes", CALL);
    EtcdHttp.put(port, "leased", "too", lease, CALL);

    server.restart();

    assertThat(server.clientPort()).isEqualTo(port);
    assertThat(server.pid()).isNotEqualTo(pid);
    assertThat(ProcessHandle.of(pid).filter(ProcessHandle::isAlive)).isEmpty();
    assertThat(EtcdHttp.get(port, "survivor", CALL)).hasValue("yes");
    assertThat(EtcdHttp.get(port, "leased", CALL)).hasValue("too");
    assertThat(EtcdHttp.leaseTimeToLive(port, lease, CALL)).isPositive();
  }

  @Test
  @Timeout(30)
  void startAfterAKillKeepsTheKeys() throws Exception {
    server.start();
    int port = server.clientPort();
    long pid = server.pid();
    EtcdHttp.put(port, "survivor", "after a crash", CALL);

    server.kill();

    assertThat(server.isRunning()).isFalse();
    assertThat(ProcessHandle.of(pid).filter(ProcessHandle::isAlive)).isEmpty();
    assertThat(Loopback.isListening(port)).isFalse();

    server.start();

    assertThat(server.clientPort()).isEqualTo(port);
    assertThat(EtcdHttp.get(port, "survivor", CALL)).hasValue("after a crash");
  }

  @Test
  @Timeout(30)
  void startAfterAStopBeginsEmptyOnTheSamePorts() throws Exception {
    server.start();
    int port = server.clientPort();
    EtcdHttp.put(port, "forgotten", "soon", CALL);

    server.stop();
    server.start();

    assertThat(server.clientPort()).isEqualTo(port);
    assertThat(EtcdHttp.get(port, "forgotten", CALL)).isEmpty();
  }

  @Test
  @Timeout(30)
  void startOnAPortTakenMeanwhileSaysSo() throws Exception {
    server.start();
    int port = server.clientPort();
    server.kill();

    try (ServerSocket squatter = new ServerSocket(port, 1, InetAddress.getByName(Loopback.HOST))) {
      assertThat(squatter.getLocalPort()).isEqualTo(port);
      assertThatThrownBy(server::start).isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("another process has taken");
    }
    assertThat(server.isRunning()).isFalse();
  }

  @Test
  @Timeout(30)
  void startingARunningServerIsRefused() {
    server.start();
    assertThatThrownBy(server::start).isInstanceOf(IllegalStateException.class).hasMessageContaining("already running");
  }

  @Test
  @Timeout(10)
  void aServerNeverStartedHasNoEndpointYet() {
    assertThatThrownBy(server::endpoint).isInstanceOf(IllegalStateException.class).hasMessageContaining("start()");
    assertThatThrownBy(server::pid).isInstanceOf(IllegalStateException.class).hasMessageContaining("not running");
    server.stop();
    server.kill();
    assertThat(server.isRunning()).isFalse();
  }
}
