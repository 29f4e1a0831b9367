package dev.baton.testkit;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.BackendUnavailableException;
import dev.baton.LockClient;
import dev.baton.torture.LockClientFactory;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The child-JVM plumbing (class path, output, exit); holding a real lock is covered by each backend's contract test. */
class ChildJvmTest {

  /** A factory whose store is never there, so the child JVM fails the way a misconfigured one would. */
  public static final class UnreachableStore implements LockClientFactory {
    @Override
    public LockClient connect(String target) {
      throw new BackendUnavailableException("no store at " + target);
    }
  }

  @Test
  @Timeout(30)
  void aChildThatCannotTakeTheLockIsReportedWithItsOutput() {
    assertThatThrownBy(() -> ChildJvm.holdingLock(UnreachableStore.class, "nowhere:1", "child/key", Duration.ofSeconds(1)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("did not hold 'child/key'")
        .hasMessageContaining(LockHolderMain.ERROR + " dev.baton.BackendUnavailableException: no store at nowhere:1");
  }
}
