package dev.baton.testkit;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.embedded.internal.Loopback;
import dev.baton.servers.TcpProxy;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The proxy's forwarding and each of its faults, against a tiny echo server. */
class TcpProxyTest {
  private static final int READ_TIMEOUT_MILLIS = 5000;
  private static final Duration EVENT_TIMEOUT = Duration.ofSeconds(5);

  private EchoServer echo;
  private TcpProxy proxy;

  @BeforeEach
  void startEchoAndProxy() throws IOException {
    echo = new EchoServer();
    proxy = TcpProxy.start(Loopback.HOST, echo.port());
  }

  @AfterEach
  void stopEverything() throws IOException {
    proxy.close();
    echo.close();
  }

  @Test
  @Timeout(10)
  void bytesFlowBothWays() throws IOException {
    assertThat(proxy.address()).isEqualTo("127.0.0.1:" + proxy.port());
    try (Socket client = connect()) {
      assertThat(roundTrip(client, "hello")).isEqualTo("hello");
      assertThat(roundTrip(client, "again")).isEqualTo("again");
      assertThat(proxy.openConnections()).isEqualTo(1);
    }
  }

  @Test
  @Timeout(10)
  void heldRepliesAreDroppedWhileRequestsStillArrive() throws IOException {
    try (Socket client = connect()) {
      assertThat(roundTrip(client, "before")).isEqualTo("before");

      proxy.holdReplies();
      send(client, "lost");
      await().atMost(EVENT_TIMEOUT).until(() -> proxy.droppedReplyBytes() == 4);
      proxy.resumeReplies();

      assertThat(roundTrip(client, "after")).isEqualTo("after");
    }
  }

  @Test
  @Timeout(10)
  void dropConnectionsClosesBothSidesAndNewConnectionsStillWork() throws IOException {
    try (Socket client = connect()) {
      assertThat(roundTrip(client, "ping")).isEqualTo("ping");

      proxy.dropConnections();

      assertThat(endOfStream(client)).isTrue();
      await().atMost(EVENT_TIMEOUT).until(() -> echo.openConnections() == 0);
      assertThat(proxy.openConnections()).isZero();
    }
    try (Socket client = connect()) {
      assertThat(roundTrip(client, "reconnected")).isEqualTo("reconnected");
    }
  }

  @Test
  @Timeout(10)
  void refusedConnectionsAreClosedAtOnceWhileCurrentOnesGoOn() throws IOException {
    try (Socket current = connect()) {
      assertThat(roundTrip(current, "first")).isEqualTo("first");
      proxy.refuseConnections(true);
      try (Socket refused = connect()) {
        assertThat(endOfStream(refused)).isTrue();
      }
      assertThat(roundTrip(current, "still")).isEqualTo("still");

      proxy.refuseConnections(false);
      try (Socket accepted = connect()) {
        assertThat(roundTrip(accepted, "welcome")).isEqualTo("welcome");
      }
    }
  }

  @Test
  @Timeout(10)
  void aConnectionToATargetThatIsDownIsClosed() throws IOException {
    echo.close();
    try (Socket client = connect()) {
      assertThat(endOfStream(client)).isTrue();
    }
  }

  @Test
  @Timeout(10)
  void closeStopsListeningAndEndsEveryThread() throws IOException {
    ThreadLeaks threads = ThreadLeaks.snapshot();
    TcpProxy second = TcpProxy.start(Loopback.HOST, echo.port());
    try (Socket client = new Socket()) {
      client.connect(new InetSocketAddress(Loopback.HOST, second.port()), READ_TIMEOUT_MILLIS);
      client.setSoTimeout(READ_TIMEOUT_MILLIS);
      assertThat(roundTrip(client, "bye")).isEqualTo("bye");

      second.close();

      assertThat(endOfStream(client)).isTrue();
    }
    assertThat(Loopback.isListening(second.port())).isFalse();
    await().atMost(EVENT_TIMEOUT).until(() -> echo.openConnections() == 0);
    threads.awaitNoneLeft(EVENT_TIMEOUT);
  }

  private Socket connect() throws IOException {
    Socket socket = new Socket();
    socket.connect(new InetSocketAddress(Loopback.HOST, proxy.port()), READ_TIMEOUT_MILLIS);
    socket.setSoTimeout(READ_TIMEOUT_MILLIS);
    return socket;
  }

  private static void send(Socket socket, String text) throws IOException {
    socket.getOutputStream().write(text.getBytes(UTF_8));
  }

  private static String roundTrip(Socket socket, String text) throws IOException {
    send(socket, text);
    byte[] reply = socket.getInputStream().readNBytes(text.getBytes(UTF_8).length);
    return new String(reply, UTF_8);
  }

  /** Whether the socket was closed by the other side: a read ends the stream (or is reset) within 5 s. */
  private static boolean endOfStream(Socket socket) throws IOException {
    InputStream in = socket.getInputStream();
    try {
      return in.read() == -1;
    } catch (SocketException reset) {
      return true;
    }
  }
}
