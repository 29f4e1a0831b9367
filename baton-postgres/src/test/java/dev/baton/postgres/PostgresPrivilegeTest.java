package dev.baton.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.Lease;
import dev.baton.LeaseState;
import dev.baton.LockClient;
import dev.baton.LockOptions;
import dev.baton.PermissionDeniedException;
import dev.baton.testkit.PostgresServerExtension;
import java.time.Duration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Users with some of the privileges a lock needs: refused at the acquire, naming the acquire and what to grant, before
 * anything is written, rather than halfway through a lock's life (a release refused without DELETE that left the row
 * held, renewals refused without UPDATE); a user who may not even read the table is refused as it connects.
 */
class PostgresPrivilegeTest {
  private static final String PASSWORD = "partly-privileged-7";

  @RegisterExtension
  static final PostgresServerExtension postgres = new PostgresServerExtension();

  @BeforeAll
  static void createTheTableAndTheUsers() {
    PostgresLockClient.connect(postgres.uri()).close(); // the test user makes the table
    user("reader", "SELECT", true);
    user("no_delete", "SELECT, INSERT, UPDATE", true);
    user("no_update", "SELECT, INSERT, DELETE", true);
    user("no_sequence", "SELECT, INSERT, UPDATE, DELETE", false);
    user("nobody", null, false);
  }

  @Test
  void aUserWhoMayOnlyReadSeesLocksAndIsRefusedTheAcquireNamingIt() {
    try (LockClient client = connect("reader")) {
      assertThat(client.status("read/k").isHeld()).isFalse();

      assertThatThrownBy(() -> client.lock("read/k").acquire(Duration.ofSeconds(30)))
          .isInstanceOf(PermissionDeniedException.class)
          .hasMessageStartingWith("Acquiring 'read/k'")
          .hasMessageContaining("INSERT, UPDATE, DELETE on the lock table baton_locks")
          .hasMessageNotContaining("Leaving");
    }
    assertThat(rows()).isZero();
  }

  @Test
  void aUserWithoutDeleteIsRefusedTheAcquireAndLeavesNoRowHeld() {
    try (LockClient client = connect("no_delete")) {
      assertThatThrownBy(() -> client.lock("no-delete/k").tryAcquire())
          .isInstanceOf(PermissionDeniedException.class)
          .hasMessageStartingWith("Acquiring 'no-delete/k'")
          .hasMessageContaining("lacks DELETE on the lock table baton_locks");
    }
    assertThat(rows()).isZero();
  }

  @Test
  void aUserWithoutUpdateIsRefusedTheAcquireRatherThanLosingTheLockLater() {
    try (LockClient client = connect("no_update")) {
      assertThatThrownBy(() -> client.lock("no-update/k").acquire(Duration.ofSeconds(30)))
          .isInstanceOf(PermissionDeniedException.class)
          .hasMessageContaining("lacks UPDATE on the lock table baton_locks");
    }
    assertThat(rows()).isZero();
  }

  @Test
  void aUserWithoutTheSequenceIsToldToGrantIt() {
    try (LockClient client = connect("no_sequence")) {
      assertThatThrownBy(() -> client.lock("no-sequence/k").acquire(Duration.ofSeconds(30)))
          .isInstanceOf(PermissionDeniedException.class)
          .hasMessageContaining("lacks USAGE on the sequence baton_locks_fencing");
    }
  }

  @Test
  void aUserWithoutAnyPrivilegeIsRefusedAsItConnectsNamingTheTable() {
    assertThatThrownBy(() -> connect("nobody"))
        .isInstanceOf(PermissionDeniedException.class)
        .hasMessageContaining("lock table baton_locks")
        .hasMessageContaining("Grant the user SELECT, INSERT, UPDATE and DELETE");
  }

  @Test
  void privilegesGrantedWhileAClientRunsTakeEffectAtItsNextAcquire() throws Exception {
    user("granted_later", "SELECT", true);
    try (LockClient client = connect("granted_later")) {
      assertThatThrownBy(() -> client.lock("later/k").tryAcquire()).isInstanceOf(PermissionDeniedException.class);

      TestDatabase.update(postgres.server(), "GRANT INSERT, UPDATE, DELETE ON baton_locks TO granted_later");

      try (Lease lease = client.lock("later/k").acquire(Duration.ofSeconds(5))) {
        assertThat(lease.isHeld()).isTrue();
      }
    }
    assertThat(rows()).isZero();
  }

  @Test
  void anAcquireRefusedAfterTheClientConnectedNamesTheAcquireNotItsCleanUp() {
    user("revoked", "SELECT, INSERT, UPDATE, DELETE", true);
    try (LockClient client = connect("revoked")) {
      TestDatabase.update(postgres.server(), "REVOKE INSERT, DELETE ON baton_locks FROM revoked");

      assertThatThrownBy(() -> client.lock("revoked/k").acquire(Duration.ofSeconds(30)))
          .isInstanceOf(PermissionDeniedException.class)
          .hasMessageStartingWith("Acquiring 'revoked/k'")
          .hasMessageContaining("permission denied for table baton_locks")
          .hasMessageNotContaining("Leaving");
    }
    assertThat(rows()).isZero();
  }

  @Test
  void aReleaseRefusedWhileHeldThrowsAndTheEntryExpiresWithinItsTtl() throws InterruptedException {
    user("revoked_while_held", "SELECT, INSERT, UPDATE, DELETE", true);
    try (LockClient client = connect("revoked_while_held")) {
      Lease lease = client.lock("held/k").acquire(LockOptions.builder().ttl(Duration.ofSeconds(2)).build());
      TestDatabase.update(postgres.server(), "REVOKE DELETE ON baton_locks FROM revoked_while_held");

      assertThatThrownBy(lease::close)
          .isInstanceOf(PermissionDeniedException.class)
          .hasMessageContaining("permission denied for table baton_locks");
      assertThat(lease.state()).isEqualTo(LeaseState.RELEASED);
      // No longer renewed: the row expires within its ttl, and another client's acquire takes the key.
      try (LockClient owner = PostgresLockClient.connect(postgres.uri());
          Lease next = owner.lock("held/k").acquire(Duration.ofSeconds(30))) {
        assertThat(next.fencingToken()).isGreaterThan(lease.fencingToken());
      }
    }
  }

  /** Creates a user with these privileges on the table (none if null), and USAGE on the sequence if asked. */
  private static void user(String name, String privileges, boolean sequence) {
    TestDatabase.update(postgres.server(), "CREATE ROLE " + name + " LOGIN PASSWORD '" + PASSWORD + "'");
    if (privileges != null) {
      TestDatabase.update(postgres.server(), "GRANT " + privileges + " ON baton_locks TO " + name);
    }
    if (sequence) {
      TestDatabase.update(postgres.server(), "GRANT USAGE ON SEQUENCE baton_locks_fencing TO " + name);
    }
  }

  private static LockClient connect(String user) {
    return PostgresLockClient.builder().address(postgres.uri().replaceFirst("//[^@]*@", "//" + user + ":" + PASSWORD
        + "@")).connect();
  }

  private static long rows() {
    return TestDatabase.number(postgres.server(), "SELECT count(*) FROM baton_locks");
  }
}
