package dev.baton.servers;

import dev.baton.embedded.internal.Loopback;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Just enough of etcd's HTTP/JSON gateway to check a member's health and leader and to put and read a key, so that
 * these launchers need no etcd client library. One HTTP/1.0 request per connection, on the calling thread: no
 * thread, pool or connection outlives a call (the JDK 17 {@code HttpClient} cannot be closed and keeps a selector
 * thread until it is garbage collected). etcd prints 64-bit numbers as JSON strings, and keys and values in
 * base64.
 */
public final class EtcdHttp {
  private static final String HOST = Loopback.HOST;

  /** What {@code POST /v3/maintenance/status} says about one member. */
  public record Status(String memberId, String leaderId, long raftTerm) {
    /** Whether the member believes it leads. */
    public boolean isLeader() {
      return memberId.equals(leaderId);
    }
  }

  private EtcdHttp() {}

  /**
   * Whether {@code GET /health} answers {@code {"health":"true"}}: the member knows a leader and a read through
   * it reached a quorum. False if the member did not answer within {@code timeout}.
   */
  public static boolean isHealthy(int port, Duration timeout) {
    try {
      return field(request(port, "GET", "/health", null, timeout), "health").filter("true"::equals).isPresent();
    } catch (IOException e) {
      return false;
    }
  }

  /** The member's own id and the leader it knows of ({@code "0"} for none). */
  public static Status status(int port, Duration timeout) throws IOException {
    String json = request(port, "POST", "/v3/maintenance/status", "{}", timeout);
    return new Status(required(json, "member_id"), required(json, "leader"), Long.parseLong(required(json, "raftTerm")));
  }

  /** Puts {@code key} = {@code value} (UTF-8), with no lease. */
  public static void put(int port, String key, String value, Duration timeout) throws IOException {
    request(port, "POST", "/v3/kv/put", "{\"key\":\"" + base64(key) + "\",\"value\":\"" + base64(value) + "\"}", timeout);
  }

  /** Puts {@code key} = {@code value} (UTF-8), attached to lease {@code leaseId}. */
  public static void put(int port, String key, String value, String leaseId, Duration timeout) throws IOException {
    request(port, "POST", "/v3/kv/put", "{\"key\":\"" + base64(key) + "\",\"value\":\"" + base64(value)
        + "\",\"lease\":\"" + leaseId + "\"}", timeout);
  }

  /** The value of {@code key} (a linearizable read), or empty if there is no such key. */
  public static Optional<String> get(int port, String key, Duration timeout) throws IOException {
    String json = request(port, "POST", "/v3/kv/range", "{\"key\":\"" + base64(key) + "\"}", timeout);
    if (!json.contains("\"kvs\"")) {
      return Optional.empty();
    }
    // etcd leaves out empty fields, an empty value included.
    return Optional.of(field(json, "value").map(EtcdHttp::decode).orElse(""));
  }

  /** Grants a lease of {@code ttlSeconds} and returns its id. */
  public static String grantLease(int port, long ttlSeconds, Duration timeout) throws IOException {
    return required(request(port, "POST", "/v3/lease/grant", "{\"TTL\":\"" + ttlSeconds + "\"}", timeout), "ID");
  }

  /** The seconds left to lease {@code leaseId}, or -1 if etcd does not know it (it expired or was revoked). */
  public static long leaseTimeToLive(int port, String leaseId, Duration timeout) throws IOException {
    String json = request(port, "POST", "/v3/lease/timetolive", "{\"ID\":\"" + leaseId + "\"}", timeout);
    return Long.parseLong(required(json, "TTL"));
  }

  /**
   * Sends one request on a new connection and returns the body of a 200 answer.
   *
   * @throws IOException if the member could not be reached, did not answer within {@code timeout}, or answered
   *     with another status (the message quotes etcd's error)
   */
  private static String request(int port, String method, String path, String body, Duration timeout)
      throws IOException {
    int millis = Math.toIntExact(timeout.toMillis());
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(HOST, port), millis);
      socket.setSoTimeout(millis);
      byte[] content = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
      String head = method + " " + path + " HTTP/1.0\r\nHost: " + HOST + ":" + port + "\r\n"
          + (body == null ? "" : "Content-Type: application/json\r\nContent-Length: " + content.length + "\r\n")
          + "\r\n";
      OutputStream out = socket.getOutputStream();
      out.write(head.getBytes(StandardCharsets.US_ASCII));
      out.write(content);
      out.flush();
      return readAnswer(new BufferedInputStream(socket.getInputStream()), method + " " + path, port);
    }
  }

  /** Reads an HTTP/1.0 answer: the server closes the connection after the body. */
  private static String readAnswer(InputStream in, String what, int port) throws IOException {
    String answer = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    int bodyStart = answer.indexOf("\r\n\r\n");
    if (!answer.startsWith("HTTP/") || bodyStart < 0) {
      throw new IOException("etcd on port " + port + " gave no HTTP answer to " + what + ": " + answer);
    }
    String statusLine = answer.substring(0, answer.indexOf("\r\n"));
    String body = answer.substring(bodyStart + 4);
    if (!statusLine.toUpperCase(Locale.ROOT).contains(" 200 ")) {
      throw new IOException("etcd on port " + port + " answered " + what + " with " + statusLine + ": " + body);
    }
    return body;
  }

  /** The first string field called {@code name} anywhere in {@code json}. */
  static Optional<String> field(String json, String name) {
    Matcher matcher = Pattern.compile("\"" + Pattern.quote(name) + "\"\\s*:\\s*\"((?:[^\"\\\\]|\\\\.)*)\"").matcher(json);
    return matcher.find() ? Optional.of(matcher.group(1)) : Optional.empty();
  }

  private static String required(String json, String name) throws IOException {
    return field(json, name).orElseThrow(() -> new IOException("etcd's answer has no \"" + name + "\": " + json));
  }

  private static String base64(String text) {
    return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
  }

  private static String decode(String base64) {
    return new String(Base64.getDecoder().decode(base64), StandardCharsets.UTF_8);
  }
}
