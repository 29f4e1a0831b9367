package dev.baton.etcd;

import io.grpc.netty.GrpcSslContexts;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import java.util.stream.Stream;

/** The TLS context of a client whose endpoints are https: whom it trusts, and the certificate it shows. */
final class EtcdTls {
  private EtcdTls() {}

  static SslContext context(EtcdSettings settings) {
    SslContextBuilder builder = GrpcSslContexts.forClient();
    try {
      if (settings.trustedCa() != null) {
        try (InputStream ca = Files.newInputStream(settings.trustedCa())) {
          builder.trustManager(ca);
        }
      }
      if (settings.clientCertificate() != null) {
        try (InputStream certificate = Files.newInputStream(settings.clientCertificate());
            InputStream key = Files.newInputStream(settings.clientKey())) {
          builder.keyManager(certificate, key);
        }
      }
      return builder.build();
    } catch (IOException | IllegalArgumentException e) {
      throw new IllegalArgumentException("Cannot read the TLS files " + files(settings) + ": " + e.getMessage()
          + ". They must be PEM, the private key PKCS#8 (openssl pkcs8 -topk8 -nocrypt converts one).", e);
    }
  }

  private static String files(EtcdSettings settings) {
    return Stream.of(settings.trustedCa(), settings.clientCertificate(), settings.clientKey())
        .filter(Objects::nonNull).map(Path::toString).toList().toString();
  }
}
