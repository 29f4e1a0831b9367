package dev.baton.mysql;

import java.nio.charset.StandardCharsets;

/** Keys as the lock table holds them: their UTF-8 bytes, compared and ordered byte by byte. */
final class Keys {
  private Keys() {}

  static byte[] bytes(String key) {
    return key.getBytes(StandardCharsets.UTF_8);
  }

  static String text(byte[] bytes) {
    return new String(bytes, StandardCharsets.UTF_8);
  }
}
