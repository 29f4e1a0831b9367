package dev.baton.redis;

/**
 * Where a lock lives in Redis, under the client's prefix ({@code baton:} by default): the lock hash (its exclusive
 * holder, or its shared entries and permits), the fencing counter (kept until the server's clock has passed its last
 * token by a ttl, so that tokens keep growing: see acquire.lua), the wake-up channel, the yield hash, which for a
 * moment after a release that someone waited for names the client that released, to whom the lock is refused
 * meanwhile, and the waiting writers, the exclusive acquisitions waiting for the lock, which hold back the shared
 * entries and permits that come after them. Every one of them expires or is unsubscribed once the key is released and
 * no one waits for it.
 *
 * <p>Two layouts name them. On one server and through Sentinel, {@code baton:lock:KEY}, {@code baton:fence:KEY},
 * {@code baton:wake:KEY}, {@code baton:yield:KEY} and {@code baton:writers:KEY}, as Baton has always named them. On a
 * cluster ({@link #tagged}), where a script may touch the keys of one slot only, every name of a lock carries the
 * key as its hash tag: {@code baton:{KEY}:lock}, {@code baton:{KEY}:fence}, {@code baton:{KEY}:wake},
 * {@code baton:{KEY}:yield} and {@code baton:{KEY}:writers}. Redis hashes the text between the first {@code {} and
 * the first {@code }} after it, so the prefix has no brace (see {@link #checkTaggable}) and, inside the tag, a
 * {@code }} of the key is written {@code %7D} and a {@code %} {@code %25}: the tag is the key itself unless it holds
 * one of those two characters, and never ends early.
 */
record RedisKeys(String prefix, boolean tagged) implements LockNames {
  private static final String LOCK = "lock";

  /** The layout of one server or Sentinel: {@code PREFIXlock:KEY}. */
  static RedisKeys untagged(String prefix) {
    return new RedisKeys(prefix, false);
  }

  /**
   * The layout of a cluster: {@code PREFIX{KEY}:lock}.
   *
   * @throws IllegalArgumentException if the prefix holds a brace, which would make another hash tag
   */
  static RedisKeys tagged(String prefix) {
    checkTaggable(prefix);
    return new RedisKeys(prefix, true);
  }

  /** Refuses a prefix with a brace: Redis would hash its text instead of each key's, or a tag would end early. */
  static void checkTaggable(String prefix) {
    if (prefix.indexOf('{') >= 0 || prefix.indexOf('}') >= 0) {
      throw new IllegalArgumentException("The namespace '" + prefix + "' holds a brace, which a Redis cluster would"
          + " read as (part of) a hash tag: every key under it would hash alike, or a lock's keys to different slots."
          + " Use a namespace without '{' and '}', e.g. \"orders:\"; each lock's keys are tagged with the lock's key.");
    }
  }

  String lock(String key) {
    return name(LOCK, key);
  }

  String fence(String key) {
    return name("fence", key);
  }

  String yielded(String key) {
    return name("yield", key);
  }

  String writers(String key) {
    return name("writers", key);
  }

  /** The channel on which the client with {@code clientId} hears requests to release its entries. */
  String releaseChannel(String clientId) {
    return name("release", clientId);
  }

  String channel(String key) {
    return name("wake", key);
  }

  private String name(String kind, String key) {
    return tagged ? prefix + "{" + tag(key) + "}:" + kind : prefix + kind + ":" + key;
  }

  @Override
  public String lockPattern(String keyPrefix) {
    if (!tagged) {
      return LockNames.startingWith(lock(keyPrefix));
    }
    return LockNames.startingWith(prefix + "{" + tag(keyPrefix)) + LockNames.literally("}:" + LOCK);
  }

  @Override
  public String keyOfLock(String lockHash) {
    if (!tagged) {
      return lockHash.substring(lock("").length());
    }
    return untag(lockHash.substring(prefix.length() + 1, lockHash.length() - ("}:" + LOCK).length()));
  }

  /**
   * The key as a hash tag: {@code %} and {@code }} written {@code %25} and {@code %7D}. Each character is written
   * alone, so the tag of a key prefix starts the tag of every key under it, and no written form starts another.
   */
  static String tag(String key) {
    if (key.indexOf('%') < 0 && key.indexOf('}') < 0) {
      return key;
    }
    StringBuilder tag = new StringBuilder(key.length() + 8);
    for (int i = 0; i < key.length(); i++) {
      char c = key.charAt(i);
      switch (c) {
        case '%' -> tag.append("%25");
        case '}' -> tag.append("%7D");
        default -> tag.append(c);
      }
    }
    return tag.toString();
  }

  /** The key a {@link #tag} was made of. */
  static String untag(String tag) {
    return tag.replace("%7D", "}").replace("%25", "%");
  }
}
