package dev.baton.etcd;

import dev.baton.spi.LockBackend;
import dev.baton.testkit.EtcdServerExtension;
import dev.baton.testkit.QueueRuleContract;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Shared entries, permits and an exclusive entry among them, on a single etcd member, at the SPI. */
class EtcdQueueRuleTest extends QueueRuleContract {
  @RegisterExtension
  static final EtcdServerExtension etcd = new EtcdServerExtension();

  /**
   * The contract asks for a 30 s ttl at the SPI, where no engine caps it at a third of the lease's (the most a lease
   * kept alive is sure to live): a lease three times as long grants it.
   */
  private static final Duration SESSION_TIMEOUT = Duration.ofSeconds(90);

  /** A backend as {@link EtcdLockClient} connects one. */
  static EtcdBackend connect(String endpoint) {
    return EtcdBackend.connect(new EtcdSettings(List.of(URI.create(endpoint)), null, null,
        EtcdLockClient.DEFAULT_NAMESPACE, SESSION_TIMEOUT, Duration.ofSeconds(5), null, null, null, false));
  }

  @Override
  protected LockBackend newBackend() {
    return connect(etcd.endpoint());
  }
}
