package dev.baton.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Lease;
import dev.baton.LockClient;
import dev.baton.LockOptions;
import dev.baton.memory.MemoryLockClient;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * The starter on {@code baton.backend=memory://}, the JVM's own store: an application's tests lock without a server,
 * and see its locks with a client of the same store.
 */
class MemoryStarterTest extends StarterContract {

  @Override
  protected String backend() {
    return "memory://";
  }

  @Override
  protected String backendName() {
    return "memory";
  }

  private static ApplicationContextRunner application() {
    return new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(BatonAutoConfiguration.class))
        .withPropertyValues("baton.backend=memory://orders-app")
        .withBean(Activity.class, Activity::new)
        .withUserConfiguration(OrdersConfiguration.class);
  }

  @Test
  void aTestHoldsTheApplicationsLockWithAClientOfTheSameStore() {
    application().run(context -> {
      Orders orders = context.getBean(Orders.class);
      try (LockClient test = MemoryLockClient.connect("memory://orders-app");
          Lease held = test.lock("order:7").acquire()) {
        assertThat(orders.refund(7)).isEqualTo("queued 7");
      }
      assertThat(orders.refund(7)).isEqualTo("refunded");
    });
  }

  @Test
  void theNamespaceSeparatesKeysAndTheServersSettingsAreIgnored() {
    application().withPropertyValues("baton.namespace=orders", "baton.connect-timeout=1s", "baton.username=app",
        "baton.password=secret").run(context -> {
          Orders orders = context.getBean(Orders.class);
          try (LockClient prefixed = MemoryLockClient.connect("memory://orders-app", "orders", LockOptions.defaults());
              LockClient plain = MemoryLockClient.connect("memory://orders-app")) {
            try (Lease held = plain.lock("order:8").acquire()) {
              assertThat(orders.refund(8)).as("another namespace's key").isEqualTo("refunded");
            }
            try (Lease held = prefixed.lock("order:8").acquire()) {
              assertThat(orders.refund(8)).as("the application's namespace").isEqualTo("queued 8");
            }
          }
        });
  }
}
