package dev.baton.internal;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Set;

/**
 * Hides secrets in what Baton shows or hands on: every message, log line or status that names a store's address
 * passes it through {@link #uri(String)} first, and what hands an address on to another program (the URI that
 * {@code baton exec} gives its command) through {@link #withoutSecrets(String)}, so that a password written into an
 * address shows in neither, whatever its form.
 *
 * <p>Two places in an address hold secrets. The user info, {@code scheme://user:password@host}: its password, or
 * the whole of a user info without a colon, which Redis reads as a password. And query parameters whose value is a
 * secret, on every store alike: PostgreSQL's (pgjdbc's and libpq's) {@code password} and {@code sslpassword}, and
 * any parameter whose name, in any case, holds {@code password}, {@code passwd}, {@code secret}, {@code token} or
 * {@code credential}, or is {@code pass}, {@code pwd}, {@code auth}, {@code key} or {@code apikey}, as other
 * clients' URIs spell them. Parameters that name a file ({@code sslkey}, {@code sslcert}, {@code sslrootcert},
 * {@code passfile}) show: the file's name is no secret, and Baton never shows a file's content.
 *
 * <p>Baton's plumbing, shared by its stores, {@code baton-connect}, the starter, the torture and the command; not
 * API: {@code baton-core}'s module exports this package only to Baton's modules, and it may change in any release.
 */
public final class Redaction {
  /** What a hidden secret shows as. */
  public static final String MASK = "***";

  /** Query parameters whose value is a secret, besides those whose name holds one of {@link #SECRET_WORDS}. */
  private static final Set<String> SECRET_PARAMETERS = Set.of("pass", "pwd", "auth", "key", "apikey", "api_key",
      "api-key");
  private static final Set<String> SECRET_WORDS = Set.of("password", "passwd", "secret", "token", "credential");

  private Redaction() {}

  /**
   * {@code address} (a URI such as {@code redis://user:password@host:6379/0}, a list of them, or a connect string)
   * as it may be shown: the password of its user info replaced by {@value #MASK}, {@code redis://user:***@host:6379/0}
   * or {@code redis://:***@host}, a user info without a colon hidden whole, {@code redis://***@host}, and the value
   * of every secret query parameter hidden, {@code postgresql://db/app?user=app&password=***}. A secret parameter's
   * value runs to the next {@code &}, so that a {@code #} or {@code @} in it is hidden too. Then everything up to the
   * last {@code @} counts as user info, so that a password holding {@code /}, {@code ,} or {@code @} is hidden whole
   * even when the address is malformed; an {@code @} in a path (a ZooKeeper chroot) or in a parameter that is no
   * secret hides more than it must, never less. Null shows as {@code null}.
   */
  public static String uri(String address) {
    if (address == null) {
      return "null";
    }
    String masked = secretParameters(address, false);
    int at = masked.lastIndexOf('@');
    if (at < 0) {
      return masked;
    }
    int scheme = masked.indexOf("://");
    int start = scheme >= 0 && scheme < at ? scheme + 3 : 0;
    String userInfo = masked.substring(start, at);
    int colon = userInfo.indexOf(':');
    String user = colon >= 0 ? userInfo.substring(0, colon + 1) : "";
    return masked.substring(0, start) + user + MASK + masked.substring(at);
  }

  /**
   * {@code address}, a URI the store accepted, with its secrets taken out rather than hidden, so that it still names
   * the same store to a program it is handed to: the password of the user info removed,
   * {@code redis://user:secret@host:6379} becoming {@code redis://user@host:6379}, a user info without a user removed
   * whole ({@code redis://:secret@host} and {@code redis://secret@host}, which Redis reads as a password, become
   * {@code redis://host}; elsewhere a user info without a colon is a user, {@code postgresql://app@db/app}, and
   * kept), and every secret query parameter removed,
   * {@code postgresql://db/app?user=app&password=s3cret} becoming {@code postgresql://db/app?user=app}. The user
   * info ends at the last {@code @} before the first {@code /} after {@code scheme://}, as the stores read it, so that
   * a ZooKeeper chroot holding {@code @} is kept; each URI of a comma-separated list of them is read alone. Null
   * stays null.
   */
  public static String withoutSecrets(String address) {
    if (address == null) {
      return null;
    }
    String[] uris = secretParameters(address, true).split(",(?=[A-Za-z][A-Za-z0-9+.:-]*://)", -1);
    StringBuilder out = new StringBuilder();
    for (String one : uris) {
      out.append(out.length() == 0 ? "" : ",").append(withoutPassword(one));
    }
    return out.toString();
  }

  /** Whether {@code address} holds a secret that {@link #uri} would hide. */
  public static boolean hasSecrets(String address) {
    return address != null && !withoutSecrets(address).equals(address);
  }

  /**
   * The user info of one URI without its password; a user info without a colon is a user (PostgreSQL's) and kept,
   * but on Redis, which reads it as the password, removed.
   */
  private static String withoutPassword(String uri) {
    int scheme = uri.indexOf("://");
    if (scheme < 0) {
      return uri;
    }
    int start = scheme + 3;
    int slash = uri.indexOf('/', start);
    int at = uri.lastIndexOf('@', slash < 0 ? uri.length() - 1 : slash);
    if (at < start) {
      return uri;
    }
    String userInfo = uri.substring(start, at);
    int colon = userInfo.indexOf(':');
    if (colon < 0 && !uri.regionMatches(true, 0, "redis", 0, "redis".length())) {
      return uri;
    }
    String user = colon > 0 ? userInfo.substring(0, colon) + "@" : "";
    return uri.substring(0, start) + user + uri.substring(at + 1);
  }

  /**
   * {@code address} with the value of every secret query parameter masked, or with the parameter removed when
   * {@code remove}. A parameter starts after a {@code ?} or {@code &} and its value runs to the next {@code &}.
   */
  private static String secretParameters(String address, boolean remove) {
    StringBuilder out = new StringBuilder(address.length());
    int i = 0;
    boolean queryOpenedAndEmptied = false;
    while (i < address.length()) {
      char c = address.charAt(i);
      int end = address.indexOf('&', i + 1);
      end = end < 0 ? address.length() : end;
      int equals = address.indexOf('=', i + 1);
      if ((c == '?' || c == '&') && equals > i && equals < end && isSecret(address.substring(i + 1, equals))) {
        if (!remove) {
          out.append(address, i, equals + 1).append(MASK);
        } else if (c == '?') {
          queryOpenedAndEmptied = true;
        }
        i = end;
        continue;
      }
      if (c == '&' && queryOpenedAndEmptied) {
        c = '?';
        queryOpenedAndEmptied = false;
      } else if (c == '?') {
        queryOpenedAndEmptied = false;
      }
      out.append(c);
      i++;
    }
    return out.toString();
  }

  private static boolean isSecret(String parameter) {
    String name;
    try {
      name = URLDecoder.decode(parameter, StandardCharsets.UTF_8).toLowerCase(Locale.ROOT);
    } catch (IllegalArgumentException malformed) {
      name = parameter.toLowerCase(Locale.ROOT);
    }
    return SECRET_PARAMETERS.contains(name) || SECRET_WORDS.stream().anyMatch(name::contains);
  }
}
