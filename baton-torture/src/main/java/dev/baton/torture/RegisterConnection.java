package dev.baton.torture;

import dev.baton.embedded.internal.Loopback;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/** A worker's connection to the {@link FencedRegister}: one request line, one answer line. */
final class RegisterConnection {
  private final PrintWriter requests;
  private final BufferedReader answers;

  RegisterConnection(int port) throws IOException {
    Socket socket = new Socket(Loopback.HOST, port);
    requests = new PrintWriter(socket.getOutputStream(), true, StandardCharsets.UTF_8);
    answers = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
  }

  /** Sends {@code request} and returns the register's answer; one thread at a time. */
  String ask(String request) throws IOException {
    requests.println(request);
    String answer = answers.readLine();
    if (answer == null) {
      throw new IOException("The register closed the connection");
    }
    return answer;
  }
}
