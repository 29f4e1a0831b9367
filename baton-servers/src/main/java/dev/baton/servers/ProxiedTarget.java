package dev.baton.servers;

import dev.baton.embedded.internal.Loopback;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A store's target with every loopback address in it ({@code 127.0.0.1:PORT}, however many) replaced by the address
 * of a {@link TcpProxy} to it, so that a test can cut the clients connected through it off as a crash of their
 * process would: {@link #cut()} drops their connections and refuses new ones, and the store hears no more of them,
 * neither a release nor a renewal nor the end of a session, until their entries expire.
 */
public final class ProxiedTarget implements AutoCloseable {
  private static final Pattern LOOPBACK_ADDRESS = Pattern.compile(Pattern.quote(Loopback.HOST) + ":(\\d+)");

  private final String target;
  private final List<TcpProxy> proxies;

  private ProxiedTarget(String target, List<TcpProxy> proxies) {
    this.target = target;
    this.proxies = proxies;
  }

  /**
   * Starts a proxy for each loopback address in {@code target}.
   *
   * @throws IllegalArgumentException if the target names no loopback address
   */
  public static ProxiedTarget of(String target) {
    List<TcpProxy> proxies = new ArrayList<>();
    Matcher address = LOOPBACK_ADDRESS.matcher(target);
    StringBuilder proxied = new StringBuilder();
    while (address.find()) {
      TcpProxy proxy = TcpProxy.start(Loopback.HOST, Integer.parseInt(address.group(1)));
      proxies.add(proxy);
      address.appendReplacement(proxied, Matcher.quoteReplacement(proxy.address()));
    }
    address.appendTail(proxied);
    if (proxies.isEmpty()) {
      throw new IllegalArgumentException("The target '" + target + "' names no " + Loopback.HOST
          + ":PORT address to put a proxy in front of.");
    }
    return new ProxiedTarget(proxied.toString(), List.copyOf(proxies));
  }

  /** The target as clients that go through the proxies use it. */
  public String target() {
    return target;
  }

  /** Cuts every client connected through the proxies off the store, for good. */
  public void cut() {
    for (TcpProxy proxy : proxies) {
      proxy.refuseConnections(true);
      proxy.dropConnections();
    }
  }

  @Override
  public void close() {
    proxies.forEach(TcpProxy::close);
  }
}
