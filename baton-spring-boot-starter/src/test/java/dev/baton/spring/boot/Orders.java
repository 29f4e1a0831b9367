package dev.baton.spring.boot;

import dev.baton.LockClient;
import dev.baton.spring.Locked;
import java.util.concurrent.CompletableFuture;

/** A bean with {@code @Locked} methods, that records what it saw while it ran. */
public class Orders {
  private final LockClient client;
  private final Activity activity;
  private final CompletableFuture<String> pending = new CompletableFuture<>();

  public Orders(LockClient client, Activity activity) {
    this.client = client;
    this.activity = activity;
  }

  /** Says whether the store saw the order's lock held while it ran. */
  @Locked(key = "'order:' + #orderId", waitTime = "5s", holdTimeout = "30s")
  public boolean ship(long orderId) {
    return client.status("order:" + orderId).isHeld();
  }

  /** Reads the catalog beside other readers; says whether the store saw the key held. */
  @Locked(key = "'catalog'", mode = Locked.Mode.READ, waitTime = "0")
  public boolean browse() {
    return client.status("catalog").isHeld();
  }

  /** Writes the catalog, alone. */
  @Locked(key = "'catalog'", waitTime = "0")
  public String edit() {
    return "edited";
  }

  /** Asks for the write lock while holding the read lock: refused. */
  @Locked(key = "'catalog'", mode = Locked.Mode.READ, waitTime = "0")
  public String browseThenEdit(Orders self) {
    return self.edit();
  }

  /** Counts how many run at once, across instances. */
  @Locked(key = "'stock:' + #p0")
  public void reserve(String sku) {
    activity.enter();
    Thread.yield();
    activity.leave();
  }

  @Locked(key = "'order:' + #orderId", waitTime = "${orders.wait:100ms}")
  public String cancel(long orderId) {
    return "cancelled";
  }

  @Locked(key = "'order:' + #orderId", waitTime = "0", fallback = "refundLater")
  public String refund(long orderId) {
    return "refunded";
  }

  /** The fallback of {@link #refund(long)}. */
  public String refundLater(long orderId) {
    return "queued " + orderId;
  }

  /** Runs at most once per 500 ms across instances, however soon it returns. */
  @Locked(key = "'daily-report'", waitTime = "0", holdAtLeast = "500ms", fallback = "skipReport")
  public String report() {
    return "ran";
  }

  /** The fallback of {@link #report()}. */
  public String skipReport() {
    return "skipped";
  }

  /** Holds the lock until the test completes {@link #pending()}. */
  @Locked(key = "'invoice:' + #invoiceId", waitTime = "100ms")
  public CompletableFuture<String> invoice(long invoiceId) {
    return pending;
  }

  public CompletableFuture<String> pending() {
    return pending;
  }

  /** Calls itself through the proxy with the same key: the nested call must not wait for its own thread. */
  @Locked(key = "'order:' + #orderId", waitTime = "100ms")
  public boolean audit(long orderId, Orders self) {
    return self.ship(orderId);
  }
}
