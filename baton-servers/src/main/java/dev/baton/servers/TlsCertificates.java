package dev.baton.servers;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A throw-away certificate authority and the certificates it signed for a test: one for a server on
 * {@code 127.0.0.1}/{@code localhost} and one for a client, all PEM, private keys in PKCS#8, made by the
 * {@code openssl} command (which {@code bin/test} installs when it is missing). Valid for one day.
 *
 * @param ca the authority's certificate, for the trust stores of both sides
 * @param serverCertificate the server's certificate
 * @param serverKey the server's private key
 * @param clientCertificate the client's certificate
 * @param clientKey the client's private key
 */
public record TlsCertificates(Path ca, Path serverCertificate, Path serverKey, Path clientCertificate, Path clientKey) {
  private static final long OPENSSL_TIMEOUT_SECONDS = 30;

  /** Makes the authority and both certificates in {@code dir}, which must exist. */
  public static TlsCertificates generate(Path dir) {
    TlsCertificates files = new TlsCertificates(dir.resolve("ca.crt"), dir.resolve("server.crt"),
        dir.resolve("server.key"), dir.resolve("client.crt"), dir.resolve("client.key"));
    Path caKey = dir.resolve("ca.key");
    openssl(dir, "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
        "-keyout", caKey.toString(), "-out", files.ca().toString(), "-days", "1", "-subj", "/CN=Baton test CA");
    files.sign(dir, "server", files.serverCertificate(), files.serverKey(),
        "subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n");
    files.sign(dir, "client", files.clientCertificate(), files.clientKey(), "extendedKeyUsage=clientAuth\n");
    return files;
  }

  private void sign(Path dir, String name, Path certificate, Path key, String extensions) {
    Path request = dir.resolve(name + ".csr");
    Path extensionFile = dir.resolve(name + ".ext");
    try {
      Files.writeString(extensionFile, extensions);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    openssl(dir, "req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
        "-keyout", key.toString(), "-out", request.toString(), "-subj", "/CN=baton-test-" + name);
    openssl(dir, "x509", "-req", "-in", request.toString(), "-CA", ca.toString(), "-CAkey",
        dir.resolve("ca.key").toString(), "-CAcreateserial", "-out", certificate.toString(), "-days", "1",
        "-extfile", extensionFile.toString());
  }

  private static void openssl(Path dir, String... arguments) {
    List<String> command = new ArrayList<>(List.of("openssl"));
    command.addAll(List.of(arguments));
    try {
      Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
      process.getOutputStream().close();
      String output = new String(process.getInputStream().readAllBytes());
      if (!process.waitFor(OPENSSL_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new IllegalStateException("openssl did not finish within " + OPENSSL_TIMEOUT_SECONDS + " s: " + command);
      }
      if (process.exitValue() != 0) {
        throw new IllegalStateException("openssl failed (" + process.exitValue() + "): " + command + "\n" + output);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot run openssl, which makes the test certificates; install it"
          + " (apt-get install openssl) or run bin/test, which does.", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while openssl made the test certificates", e);
    }
  }
}
