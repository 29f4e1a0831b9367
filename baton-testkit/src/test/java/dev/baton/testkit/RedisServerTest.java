package dev.baton.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.servers.RedisServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Starting, restarting and stopping a real redis-server. */
class RedisServerTest {
  private final RedisServer server = new RedisServer();

  @AfterEach
  void stopServer() {
    server.stop();
  }

  @Test
  @Timeout(30)
  void startsAnswersAndStopsWithoutLeavingAProcess() {
    server.start();
    assertThat(server.isRunning()).isTrue();
    assertThat(server.uri()).isEqualTo("redis://127.0.0.1:" + server.port());
    assertThat(server.command("PING")).isEqualTo("PONG");
    long pid = server.pid();

    server.stop();

    assertThat(server.isRunning()).isFalse();
    assertThat(ProcessHandle.of(pid).filter(ProcessHandle::isAlive)).isEmpty();
  }

  @Test
  @Timeout(30)
  void restartKeepsThePortAndLosesTheData() {
    server.start();
    int port = server.port();
    long pid = server.pid();
    assertThat(server.command("SET", "survivor", "no")).isEqualTo("OK");

    server.restart();

    assertThat(server.port()).isEqualTo(port);
    assertThat(server.pid()).isNotEqualTo(pid);
    assertThat(ProcessHandle.of(pid).filter(ProcessHandle::isAlive)).isEmpty();
    assertThat(server.command("PING")).isEqualTo("PONG");
    assertThat(server.command("GET", "survivor")).isNull();
  }

  @Test
  @Timeout(30)
  void startingARunningServerIsRefused() {
    server.start();
    assertThatThrownBy(server::start).isInstanceOf(IllegalStateException.class).hasMessageContaining("already running");
  }

  @Test
  @Timeout(10)
  void aServerNeverStartedHasNoPortYet() {
    assertThatThrownBy(server::uri).isInstanceOf(IllegalStateException.class).hasMessageContaining("start()");
    server.stop();
    assertThat(server.isRunning()).isFalse();
  }
}
