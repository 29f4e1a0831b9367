package dev.baton.zookeeper;

import dev.baton.internal.Settings;


/**
 * Where a lock lives in ZooKeeper: key {@code orders/42} is the path {@code /baton/orders/42}, and its
 * lock nodes are that path's children whose names start with {@value #RESERVED_PREFIX}, a prefix no key
 * segment may take. With the root for namespace (as Curator's paths are), it is {@code /orders/42}, and no key's top
 * segment may be {@value #SYSTEM_SEGMENT}, ZooKeeper's own.
 */
final class ZkPaths {
  static final String RESERVED_PREFIX = "_c_";
  static final String ROOT = "/";
  private static final String SYSTEM_SEGMENT = "zookeeper";

  private final String namespace;

  ZkPaths(String namespace) {
    this.namespace = namespace;
  }

  String lockPath(String key) {
    return isRoot() ? ROOT + key : namespace + "/" + key;
  }

  /** The namespace's path, the parent of every lock's top segment. */
  String namespace() {
    return namespace;
  }

  /** Rejects keys that are not a relative path of legal, non-reserved segments, or that would be ZooKeeper's own. */
  void checkKeyHere(String key) {
    checkKey(key);
    if (isSystemNode("", key.split("/", 2)[0])) {
      throw new IllegalArgumentException("The lock key '" + key + "' starts with '" + SYSTEM_SEGMENT + "', which at"
          + " the root of ZooKeeper's tree is the server's own node: no lock can live under it. Rename the key.");
    }
  }

  /** Whether {@code child} of the lock path of {@code parentKey} ({@code ""}: the namespace) is ZooKeeper's own node. */
  boolean isSystemNode(String parentKey, String child) {
    return isRoot() && parentKey.isEmpty() && child.equals(SYSTEM_SEGMENT);
  }

  private boolean isRoot() {
    return namespace.equals(ROOT);
  }

  /**
   * {@code path} as given, if it is the root or absolute with no trailing slash and legal segments.
   *
   * @param what what the path is, for the message: "namespace" or "chroot"
   */
  static String checkPath(String what, String path) {
    if (ROOT.equals(path)) {
      return path;
    }
    if (path == null || !path.startsWith("/") || path.length() < 2 || path.endsWith("/")) {
      throw new IllegalArgumentException("The " + what + " must be an absolute ZooKeeper path without a trailing"
          + " slash, such as \"/baton\", but was '" + path + "'.");
    }
    if (path.length() > Settings.MAX_PREFIX_LENGTH) {
      throw new IllegalArgumentException("The " + what + " must be at most " + Settings.MAX_PREFIX_LENGTH
          + " characters but '" + path.substring(0, 20) + "...' has " + path.length()
          + "; use a short path such as \"/baton\".");
    }
    checkSegments(path.substring(1), what, path.substring(1));
    return path;
  }

  /** Rejects keys that are not a relative path of legal, non-reserved segments. */
  static void checkKey(String key) {
    checkSegments(key, "lock key", key);
  }

  /**
   * Rejects key prefixes that no key could start with: its complete segments (those before its last '/') must be
   * legal key segments, and what follows the last '/' must be the start of one.
   */
  static void checkPrefix(String prefix) {
    int lastSlash = prefix.lastIndexOf('/');
    if (lastSlash >= 0) {
      checkSegments(prefix.substring(0, lastSlash), "key prefix", prefix);
    }
    String partial = prefix.substring(lastSlash + 1);
    if (partial.startsWith(RESERVED_PREFIX)) {
      throw new IllegalArgumentException("The key prefix '" + prefix + "' has a segment starting with '"
          + RESERVED_PREFIX + "', which Baton reserves for its lock nodes: no key starts with it.");
    }
    checkCharacters(partial, "key prefix", prefix);
  }

  /** The complete segments of a key prefix, those before its last '/': {@code orders/4} has {@code orders}. */
  static String completeSegments(String prefix) {
    return prefix.substring(0, Math.max(0, prefix.lastIndexOf('/')));
  }

  /** What a key prefix holds after its complete segments: {@code orders/4} has {@code 4}. */
  static String partialSegment(String prefix) {
    return prefix.substring(prefix.lastIndexOf('/') + 1);
  }

  /** {@code shown} is the whole text the segments come from, for the message. */
  private static void checkSegments(String path, String what, String shown) {
    String[] segments = path.split("/", -1);
    for (String segment : segments) {
      if (segment.isEmpty()) {
        throw new IllegalArgumentException("The " + what + " '" + shown + "' has an empty path segment (a leading,"
            + " trailing or doubled '/'); ZooKeeper paths cannot. Use e.g. \"orders/42\".");
      }
      if (segment.equals(".") || segment.equals("..")) {
        throw new IllegalArgumentException("The " + what + " '" + shown + "' has the segment '" + segment
            + "', which ZooKeeper paths cannot hold. Rename it.");
      }
      if (segment.startsWith(RESERVED_PREFIX)) {
        throw new IllegalArgumentException("The " + what + " '" + shown + "' has a segment starting with '"
            + RESERVED_PREFIX + "', which Baton reserves for its lock nodes. Rename it.");
      }
      checkCharacters(segment, what, shown);
    }
  }

  private static void checkCharacters(String segment, String what, String shown) {
    for (int i = 0; i < segment.length(); i++) {
      char c = segment.charAt(i);
      if (isIllegal(c)) {
        throw new IllegalArgumentException(String.format("The %s '%s' holds the character U+%04X, which ZooKeeper"
            + " paths cannot hold. Use letters, digits and punctuation.", what, shown, (int) c));
      }
    }
  }

  /** The characters ZooKeeper's own path check refuses (besides the control characters the engine refuses). */
  private static boolean isIllegal(char c) {
    return c <= '\u001f' || (c >= '\u007f' && c <= '\u009f') || (c >= '\ud800' && c <= '\uf8ff') || c >= '\ufff0';
  }
}
