package dev.baton.servers;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Just enough of the Redis protocol (RESP2) to send one command and read its reply, so that these launchers
 * need no Redis client library.
 */
final class Resp {

  private Resp() {}

  /**
   * Sends one command on a new connection and returns the reply: a {@code String} for simple and bulk
   * strings, a {@code Long} for integers, a {@code List<Object>} for arrays, {@code null} for nil.
   *
   * @throws RedisErrorReply if Redis answered with an error
   * @throws IOException if the server could not be reached or did not answer within {@code timeout}
   */
  static Object call(InetSocketAddress address, Duration timeout, String... args) throws IOException {
    try (Socket socket = new Socket()) {
      socket.connect(address, Math.toIntExact(timeout.toMillis()));
      socket.setSoTimeout(Math.toIntExact(timeout.toMillis()));
      OutputStream out = socket.getOutputStream();
      out.write(encode(args));
      out.flush();
      return read(new BufferedInputStream(socket.getInputStream()));
    }
  }

  private static byte[] encode(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    writeLine(out, "*" + args.length);
    for (String arg : args) {
      byte[] bytes = arg.getBytes(StandardCharsets.UTF_8);
      writeLine(out, "$" + bytes.length);
      out.writeBytes(bytes);
      writeLine(out, "");
    }
    return out.toByteArray();
  }

  private static void writeLine(ByteArrayOutputStream out, String line) {
    out.writeBytes((line + "\r\n").getBytes(StandardCharsets.UTF_8));
  }

  private static Object read(InputStream in) throws IOException {
    int type = in.read();
    if (type == -1) {
      throw new EOFException("Redis closed the connection before replying");
    }
    String line = readLine(in);
    return switch (type) {
      case '+' -> line;
      case '-' -> throw new RedisErrorReply(line);
      case ':' -> Long.parseLong(line);
      case '$' -> readBulk(in, Integer.parseInt(line));
      case '*' -> readArray(in, Integer.parseInt(line));
      default -> throw new IOException("Unexpected reply from Redis: " + (char) type + line);
    };
  }

  private static String readBulk(InputStream in, int length) throws IOException {
    if (length < 0) {
      return null;
    }
    byte[] bytes = in.readNBytes(length);
    if (bytes.length < length || !readLine(in).isEmpty()) {
      throw new IOException("Malformed bulk string from Redis");
    }
    return new String(bytes, StandardCharsets.UTF_8);
  }

  private static List<Object> readArray(InputStream in, int size) throws IOException {
    if (size < 0) {
      return null;
    }
    List<Object> items = new ArrayList<>(size);
    for (int i = 0; i < size; i++) {
      items.add(read(in));
    }
    return items;
  }

  private static String readLine(InputStream in) throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    for (int b = in.read(); b != '\r'; b = in.read()) {
      if (b == -1) {
        throw new EOFException("Redis closed the connection in the middle of a reply");
      }
      line.write(b);
    }
    if (in.read() != '\n') {
      throw new IOException("Malformed reply from Redis: CR without LF");
    }
    return line.toString(StandardCharsets.UTF_8);
  }
}
