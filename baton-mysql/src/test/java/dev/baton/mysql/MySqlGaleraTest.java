package dev.baton.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.BackendSetupException;
import dev.baton.Lease;
import dev.baton.LockClient;
import dev.baton.LockOptions;
import dev.baton.servers.GaleraCluster;
import dev.baton.servers.MariaDbServer;
import dev.baton.testkit.GaleraClusterExtension;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLSyntaxErrorException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.mariadb.jdbc.MariaDbDataSource;

/**
 * The store on a Galera cluster of three MariaDB nodes, with each client on its own node: what docs/mysql.md's table
 * of replication says of Galera. Acquires on different nodes conflict on the counter row, and certification aborts all
 * but one (a deadlock error, which the engine retries), so mutual exclusion, growing tokens, the fair queue and
 * requests to release hold across nodes; reads wait for the cluster ({@link CausalReads}), so a node that lags
 * behind does not see a renewed lock as expired, in a waiter's reads or in a first try's claim or full transaction, on
 * the client's own pool and on an application's {@code DataSource} (its compound statement, or the full transaction
 * where compound statements are refused), however long after its wait a try's transaction reads; a node killed while
 * its client holds
 * frees the lock within its ttl on the others. The cluster is started once for the class; the test that kills a
 * node runs last.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class MySqlGaleraTest {
  private static final int THREADS_PER_CLIENT = 2;
  private static final int INCREMENTS = 15;
  private static final Duration LONG_WAIT = Duration.ofSeconds(60);
  private static final Duration PROMPTLY = Duration.ofSeconds(10);

  @RegisterExtension
  static final GaleraClusterExtension galera = new GaleraClusterExtension();

  private final List<LockClient> clients = new ArrayList<>();

  /** Read and written only under the lock, without any other synchronization. */
  private long counter;
  private final AtomicInteger inside = new AtomicInteger();
  private volatile boolean overlapped;
  private final List<long[]> grants = new CopyOnWriteArrayList<>();

  @AfterEach
  void closeClients() {
    clients.forEach(LockClient::close);
  }

  @Test
  @Order(1)
  @Timeout(120)
  void aCounterUpdatedByReadPauseWriteUnderTheLockFromEveryNodeIsExact() throws Exception {
    long conflictsBefore = conflicts();
    ExecutorService threads = Executors.newFixedThreadPool(galera.cluster().size() * THREADS_PER_CLIENT);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int node = 0; node < galera.cluster().size(); node++) {
        LockClient client = client(node);
        int onNode = node;
        for (int t = 0; t < THREADS_PER_CLIENT; t++) {
          done.add(threads.submit(() -> increment(client, onNode)));
        }
      }
      for (Future<?> future : done) {
        future.get();
      }
    } finally {
      threads.shutdownNow();
    }

    assertThat(counter).isEqualTo((long) galera.cluster().size() * THREADS_PER_CLIENT * INCREMENTS);
    assertThat(overlapped).as("two holders at once").isFalse();
    for (int i = 1; i < grants.size(); i++) {
      long[] before = grants.get(i - 1);
      long[] after = grants.get(i);
      if (before[0] != after[0]) {
        assertThat(after[1]).as("the token of a holder on node %d after one on node %d", after[0], before[0])
            .isGreaterThan(before[1]);
      } else {
        assertThat(after[1]).as("a token on node %d", after[0]).isGreaterThanOrEqualTo(before[1]);
      }
    }
    assertThat(grants.stream().mapToLong(grant -> grant[0]).distinct().count()).as("nodes that held")
        .isEqualTo(galera.cluster().size());
    for (int node = 0; node < galera.cluster().size(); node++) {
      assertThat(rowsAt(node, "counter")).as("rows left, seen from node %d", node).isZero();
    }
    System.out.printf("MySqlGaleraTest: %d acquires from %d nodes; certification failures and brute-force aborts"
        + " on the nodes meanwhile: %d%n", grants.size(), galera.cluster().size(), conflicts() - conflictsBefore);
  }

  private Void increment(LockClient client, int node) throws InterruptedException {
    for (int i = 0; i < INCREMENTS; i++) {
      try (Lease lease = client.lock("counter").acquire(LONG_WAIT)) {
        if (inside.incrementAndGet() != 1) {
          overlapped = true;
        }
        grants.add(new long[] {node, lease.fencingToken()});
        long read = counter;
        Thread.sleep(1); // the pause between read and write in which a second holder would lose an update
        counter = read + 1;
        inside.decrementAndGet();
      }
    }
    return null;
  }

  @Test
  @Order(2)
  @Timeout(60)
  void fencingTokensGrowFromNodeToNode() throws Exception {
    long last = 0;
    for (int round = 0; round < 3; round++) {
      for (int node = 0; node < galera.cluster().size(); node++) {
        try (Lease lease = client(node).lock("tokens").acquire(PROMPTLY)) {
          assertThat(lease.fencingToken()).as("the token on node %d", node).isGreaterThan(last);
          last = lease.fencingToken();
        }
      }
    }
  }

  @Test
  @Order(3)
  @Timeout(60)
  void waitersOnOtherNodesGetTheLockInTheOrderTheyQueued() throws Exception {
    String key = "fair";
    LockClient first = client(0);
    Lease holding = first.lock(key).acquire(PROMPTLY);
    List<Integer> order = new CopyOnWriteArrayList<>();
    List<CompletableFuture<Void>> waiting = new ArrayList<>();
    for (int node = 1; node < galera.cluster().size(); node++) {
      int onNode = node;
      waiting.add(client(node).lock(key).acquireAsync().thenAccept(lease -> {
        order.add(onNode);
        lease.close();
      }));
      int queued = node + 1;
      await().atMost(PROMPTLY).until(() -> rowsAt(0, key) == queued);
    }
    holding.close();
    CompletableFuture.allOf(waiting.toArray(new CompletableFuture<?>[0])).get(30, TimeUnit.SECONDS);

    assertThat(order).containsExactly(1, 2);
  }

  @Test
  @Order(4)
  @Timeout(60)
  void aRequestToReleaseFromAnotherNodeReachesTheHolder() throws Exception {
    String key = "asked";
    Lease holding = client(0).lock(key).acquire(PROMPTLY);
    holding.onReleaseRequested(holding::close);
    LockClient asking = client(2);

    assertThat(asking.requestRelease(key)).isEqualTo(1);
    try (Lease next = asking.lock(key).acquire(PROMPTLY)) {
      assertThat(next.fencingToken()).isGreaterThan(holding.fencingToken());
      assertThat(holding.isHeld()).isFalse();
    }
  }

  /**
   * A node whose applier is paused (FLUSH TABLES WITH READ LOCK, as a backup takes it) lags behind the holder's
   * renewals on another node: a plain read there sees the holder's entry expired. The waiter's reads wait for the
   * cluster instead, so it gets the lock only when the holder releases it.
   */
  @Test
  @Order(5)
  @Timeout(90)
  void aWaiterOnANodeThatLagsBehindDoesNotTakeALockRenewedElsewhere() throws Exception {
    String key = "lagging";
    Duration ttl = Duration.ofMillis(1500);
    Lease holding = client(0).lock(key, LockOptions.builder().ttl(ttl).build()).acquire(PROMPTLY);
    // The waiter's own entry outlives the pause (a ttl of 30 s), so that what it reads decides.
    CompletableFuture<Lease> waiting = client(1).lock(key)
        .acquireAsync(LockOptions.builder().ttl(Duration.ofSeconds(30)).waitTime(LONG_WAIT).build());
    await().atMost(PROMPTLY).until(() -> rowsAt(0, key) == 2);

    try (Connection paused = connect(1); Statement statement = paused.createStatement()) {
      statement.execute("FLUSH TABLES WITH READ LOCK");
      await().atMost(PROMPTLY).until(() -> holderLooksExpiredAt(1, key, holding.fencingToken()));
      await().during(Duration.ofSeconds(2)).atMost(PROMPTLY).until(() -> !waiting.isDone() && holding.isHeld());
      statement.execute("UNLOCK TABLES");
    }
    assertTheWaiterGetsItOnlyOnceReleased(holding, waiting);
  }

  /**
   * The first try of an acquire, sent by a node that lags behind (its applier paused by BACKUP STAGE BLOCK_DDL, as a
   * backup takes it, which lets the node's own transactions run up to their commit) while the holder renews on another
   * node: the claim's read waits for the cluster, so it sees the holder's renewal and adds nothing, and the waiter gets
   * the lock only when the holder releases it. On both kinds of connection: the client's own pool, which sends
   * {@code claim.sql} as several statements, and an application's {@code DataSource} on MariaDB, which sends
   * {@code claim-block.sql}, one compound statement. The pause ends soon after the claim is sent, well within the time
   * the holder's entry had left when the claim began (two thirds of its ttl at least): a wait guarantees that a read
   * sees what the cluster committed before its statement began, not what it committed during the wait.
   */
  @ParameterizedTest
  @EnumSource(Connections.class)
  @Order(6)
  @Timeout(90)
  void aFirstTryOnANodeThatLagsBehindDoesNotTakeALockRenewedElsewhere(Connections connections) throws Exception {
    String key = "lagging-first-try-" + connections;
    Duration ttl = Duration.ofSeconds(3);
    Lease holding = client(connections, 0).lock(key, LockOptions.builder().ttl(ttl).build()).acquire(PROMPTLY);
    LockClient lagging = client(connections, 1);
    CompletableFuture<Lease> waiting;
    try (Connection paused = connect(1); Statement statement = paused.createStatement()) {
      statement.execute("BACKUP STAGE START");
      statement.execute("BACKUP STAGE BLOCK_DDL");
      await().atMost(PROMPTLY).until(() -> holderLooksExpiredAt(1, key, holding.fencingToken()));
      long compoundBefore = compoundStatements(1);
      // The waiter's own entry, if the claim adds one, outlives the pause (a ttl of 30 s): what it read decides.
      waiting = lagging.lock(key)
          .acquireAsync(LockOptions.builder().ttl(Duration.ofSeconds(30)).waitTime(LONG_WAIT).build());
      if (connections == Connections.DATA_SOURCE) {
        await().atMost(PROMPTLY).until(() -> compoundStatements(1) > compoundBefore);
      }
      await().during(Duration.ofMillis(300)).atMost(PROMPTLY).until(() -> !waiting.isDone() && holding.isHeld());
      if (connections != Connections.DATA_SOURCE) {
        assertThat(compoundStatements(1)).as("compound statements run on node 1").isEqualTo(compoundBefore);
      }
      statement.execute("BACKUP STAGE END");
    }
    assertTheWaiterGetsItOnlyOnceReleased(holding, waiting);
  }

  /**
   * What the statements that run alone (a waiter's look, a status, the sweep) and {@code now.sql} rely on: on a node
   * that lags, a {@code SET} that reads no table does not wait for the cluster, and a statement's time
   * ({@code NOW(6)}, and so {@code UTC_TIMESTAMP(6)}: when it began) is taken before its wait, not after it
   * ({@code SYSDATE(6)}, which is read as the statement reads its rows).
   */
  @Test
  @Order(7)
  @Timeout(60)
  void aStatementsTimeIsTakenBeforeItWaitsForTheClusterAndASetDoesNotWait() throws Exception {
    Duration paused = Duration.ofSeconds(1);
    try (Connection pausing = connect(1); Statement pause = pausing.createStatement();
        Connection reading = connect(1); Statement read = reading.createStatement()) {
      read.execute("SET SESSION wsrep_sync_wait = 3");
      pause.execute("BACKUP STAGE START");
      pause.execute("BACKUP STAGE BLOCK_DDL");
      client(0).lock("clock").acquire(PROMPTLY).close(); // commits that node 1 has not applied
      CompletableFuture.runAsync(() -> execute(read, "SET @baton_now = UTC_TIMESTAMP(6)"))
          .get(PROMPTLY.toSeconds(), TimeUnit.SECONDS); // while node 1 is paused
      long pausedAt = System.nanoTime();
      CompletableFuture<Long> waited = CompletableFuture.supplyAsync(() -> microsBetweenStartAndRead(read));
      await().during(paused).atMost(PROMPTLY).until(() -> !waited.isDone());
      pause.execute("BACKUP STAGE END");
      long pausedMicros = (System.nanoTime() - pausedAt) / 1000;
      assertThat(waited.get(PROMPTLY.toSeconds(), TimeUnit.SECONDS))
          .as("microseconds from the read's NOW(6) to its SYSDATE(6), node 1 paused for %d", pausedMicros)
          .isGreaterThanOrEqualTo(paused.toNanos() / 1000);
    }
  }

  private static void execute(Statement statement, String sql) {
    try {
      statement.execute(sql);
    } catch (SQLException e) {
      throw new IllegalStateException(sql + ": " + e.getMessage(), e);
    }
  }

  /** A read's time from when it began ({@code NOW(6)}) to when it read ({@code SYSDATE(6)}), in microseconds. */
  private static long microsBetweenStartAndRead(Statement statement) {
    String sql = "SELECT TIMESTAMPDIFF(MICROSECOND, NOW(6), SYSDATE(6)) FROM baton_locks_fencing WHERE id = 1";
    try (ResultSet row = statement.executeQuery(sql)) {
      row.next();
      return row.getLong(1);
    } catch (SQLException e) {
      throw new IllegalStateException(sql + ": " + e.getMessage(), e);
    }
  }

  /**
   * A try on a node that lags, whose read comes long after its wait for the cluster: the try's transaction waits for
   * the cluster at its first statement (the node has applied all, so at once), then for the counter row's lock, which
   * a transaction on its node holds (as another acquire there would); meanwhile the node's applier is paused (BACKUP
   * STAGE BLOCK_DDL) while the holder renews on another node every third of its ttl of 3 s, until a plain read on the
   * node sees the holder expired, two thirds of the ttl at least after the try began. Then the lock on the counter
   * is let go, and the try reads with the applier still paused. It compares the expiries with the time it took before
   * its wait, at which the holder's entry, renewed on time, is live: it adds nothing (or a waiter's entry), and the
   * waiter gets the lock only when the holder releases it, while the holder's renewals go on succeeding. Compared
   * with the time of its read instead (each statement's own, before the try took its time first), the compound claim
   * and the full transaction took the lock while the holder held; {@code claim.sql} did not, as on a Galera node
   * MariaDB keeps a multi-statement call's start time for all of its statements.
   */
  @ParameterizedTest
  @EnumSource(Connections.class)
  @Order(8)
  @Timeout(90)
  void aTryThatReadsLongAfterItsWaitForTheClusterDoesNotTakeALockRenewedElsewhere(Connections connections)
      throws Exception {
    String key = "lagging-read-" + connections;
    Lease holding = client(connections, 0).lock(key, LockOptions.builder().ttl(Duration.ofSeconds(3)).build())
        .acquire(PROMPTLY);
    AtomicInteger lost = new AtomicInteger();
    holding.onLost(reason -> lost.incrementAndGet());
    LockClient lagging = client(connections, 1);
    long compoundBefore = compoundStatements(1);
    CompletableFuture<Lease> waiting;
    try (Connection counterLock = connect(1); Connection paused = connect(1);
        Statement statement = paused.createStatement()) {
      counterLock.setAutoCommit(false);
      try (Statement lock = counterLock.createStatement()) {
        lock.executeQuery("SELECT v FROM baton_locks_fencing WHERE id = 1 FOR UPDATE").close();
      }
      // The waiter's own entry, if the try adds one, outlives the pause (a ttl of 30 s): what it read decides.
      waiting = lagging.lock(key)
          .acquireAsync(LockOptions.builder().ttl(Duration.ofSeconds(30)).waitTime(LONG_WAIT).build());
      await().atMost(PROMPTLY).until(() -> lockWaitsAt(1) == 1);
      statement.execute("BACKUP STAGE START");
      statement.execute("BACKUP STAGE BLOCK_DDL");
      await().atMost(PROMPTLY).until(() -> holderLooksExpiredAt(1, key, holding.fencingToken()));
      counterLock.rollback();
      await().during(Duration.ofMillis(300)).atMost(PROMPTLY).until(() -> !waiting.isDone() && holding.isHeld());
      statement.execute("BACKUP STAGE END");
    }
    assertThat(compoundStatements(1) > compoundBefore).as("compound statements run on node 1")
        .isEqualTo(connections == Connections.DATA_SOURCE);
    assertTheWaiterGetsItOnlyOnceReleased(holding, waiting);
    assertThat(lost).as("the holder's leases lost").hasValue(0);
  }

  @Test
  @Order(9)
  @Timeout(60)
  void anApplicationsDataSourceWhoseStatementsDoNotWaitForTheClusterIsRefused() throws Exception {
    MariaDbDataSource plain = dataSource(galera.cluster().jdbcUrl(0));
    assertThatThrownBy(() -> MySqlLockClient.builder().dataSource(plain).connect())
        .isInstanceOf(BackendSetupException.class)
        .hasMessageContaining("Galera node")
        .hasMessageContaining("wsrep_sync_wait = 3");

    MariaDbDataSource readsOnly = dataSource(galera.cluster().jdbcUrl(0) + "?sessionVariables=wsrep_sync_wait=1");
    assertThatThrownBy(() -> MySqlLockClient.builder().dataSource(readsOnly).connect())
        .isInstanceOf(BackendSetupException.class)
        .hasMessageContaining("(wsrep_sync_wait = 1)");

    MariaDbDataSource causal = dataSource(galera.cluster().jdbcUrl(0) + "?sessionVariables=wsrep_sync_wait=3");
    try (LockClient client = MySqlLockClient.builder().dataSource(causal).connect();
        Lease lease = client.lock("data-source").acquire(PROMPTLY)) {
      assertThat(lease.fencingToken()).isPositive();
    }
  }

  @Test
  @Order(10)
  @Timeout(90)
  void aLockHeldThroughANodeThatIsKilledFreesWithinItsTtlOnTheOthers() throws Exception {
    String key = "killed-node";
    Duration ttl = Duration.ofSeconds(6);
    LockOptions options = LockOptions.builder().ttl(ttl).build();
    Lease holding = client(2).lock(key, options).acquire(PROMPTLY);
    AtomicInteger lost = new AtomicInteger();
    holding.onLost(reason -> lost.incrementAndGet());
    LockClient other = client(0);
    assertThat(other.lock(key, options).tryAcquire()).isEmpty();

    long killedAt = System.nanoTime();
    galera.cluster().kill(2);
    try (Lease next = other.lock(key, options).acquire(ttl.plus(PROMPTLY))) {
      Duration took = Duration.ofNanos(System.nanoTime() - killedAt);
      assertThat(took).as("from the kill to the lock on node 0").isLessThan(ttl.plusSeconds(2));
      System.out.printf("MySqlGaleraTest: a lock of ttl %d ms held through a killed node taken on another %d ms after"
          + " the kill%n", ttl.toMillis(), took.toMillis());
      assertThat(next.fencingToken()).isGreaterThan(holding.fencingToken());
    }
    await().atMost(PROMPTLY).until(() -> lost.get() == 1);
    assertThat(holding.isHeld()).isFalse();
  }

  private LockClient client(int node) {
    LockClient client = MySqlLockClient.connect(galera.uri(node));
    clients.add(client);
    return client;
  }

  private LockClient client(Connections connections, int node) throws SQLException {
    if (connections == Connections.OWN_POOL) {
      return client(node);
    }
    DataSource dataSource = dataSource(galera.cluster().jdbcUrl(node) + "?sessionVariables=wsrep_sync_wait=3");
    LockClient client = MySqlLockClient.builder()
        .dataSource(connections == Connections.FULL_PATH ? refusingCompoundStatements(dataSource) : dataSource)
        .connect();
    clients.add(client);
    return client;
  }

  /** The kinds of connection a client takes, each with its own claim ({@link ClaimStatement}). */
  enum Connections {
    /** The client's own pool, given the node's address: {@code claim.sql}, several statements a call. */
    OWN_POOL,
    /** An application's MariaDB Connector/J {@code DataSource}: {@code claim-block.sql}, one compound statement. */
    DATA_SOURCE,
    /**
     * An application's {@code DataSource} whose connections refuse a compound statement, as MySQL's do (Percona
     * XtraDB Cluster's): no claim, every try that adds an entry is the full transaction.
     */
    FULL_PATH
  }

  /** {@code dataSource}, with connections that refuse to prepare a compound statement, as MySQL's do. */
  private static DataSource refusingCompoundStatements(DataSource dataSource) {
    return proxy(DataSource.class, dataSource, (method, args) -> {
      Object result = forward(method, dataSource, args);
      return result instanceof Connection connection ? refusingCompoundStatements(connection) : result;
    });
  }

  private static Connection refusingCompoundStatements(Connection connection) {
    return proxy(Connection.class, connection, (method, args) -> {
      if (method.getName().equals("prepareStatement") && ((String) args[0]).startsWith("BEGIN NOT ATOMIC")) {
        throw new SQLSyntaxErrorException("A compound statement, refused as MySQL refuses it", "42000", 1064);
      }
      return forward(method, connection, args);
    });
  }

  /** A proxy of {@code target} that calls {@code calls}, and is equal only to itself, as the client's pool needs. */
  private static <T> T proxy(Class<T> type, T target, Call calls) {
    return type.cast(Proxy.newProxyInstance(MySqlGaleraTest.class.getClassLoader(), new Class<?>[] {type},
        (proxy, method, args) -> switch (method.getName()) {
          case "equals" -> proxy == args[0];
          case "hashCode" -> System.identityHashCode(proxy);
          case "toString" -> "refusing compound statements: " + target;
          default -> calls.on(method, args);
        }));
  }

  private static Object forward(Method method, Object target, Object[] args) throws Throwable {
    try {
      return method.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }

  /** A call on a proxy. */
  private interface Call {
    Object on(Method method, Object[] args) throws Throwable;
  }

  /** The transactions of node {@code node} that wait for a row lock. */
  private static long lockWaitsAt(int node) throws SQLException {
    try (Connection connection = connect(node); Statement statement = connection.createStatement();
        ResultSet row = statement.executeQuery(
            "SELECT count(*) FROM information_schema.innodb_trx WHERE trx_state = 'LOCK WAIT'")) {
      row.next();
      return row.getLong(1);
    }
  }

  /** The compound statements ({@code BEGIN NOT ATOMIC ... END}) node {@code node} has run since it started. */
  private static long compoundStatements(int node) throws SQLException {
    try (Connection connection = connect(node); Statement statement = connection.createStatement();
        ResultSet row = statement.executeQuery("SHOW GLOBAL STATUS LIKE 'Com_compound_sql'")) {
      assertThat(row.next()).as("Com_compound_sql at node %d", node).isTrue();
      return row.getLong(2);
    }
  }

  private static MariaDbDataSource dataSource(String url) throws SQLException {
    MariaDbDataSource dataSource = new MariaDbDataSource(url);
    dataSource.setUser(MariaDbServer.USER);
    dataSource.setPassword(MariaDbServer.PASSWORD);
    return dataSource;
  }

  private static Connection connect(int node) throws SQLException {
    return DriverManager.getConnection(galera.cluster().jdbcUrl(node), MariaDbServer.USER, MariaDbServer.PASSWORD);
  }

  /** The key's rows at node {@code node}, read after it applied what the cluster committed. */
  private static long rowsAt(int node, String key) throws SQLException {
    try (Connection connection = connect(node); Statement causal = connection.createStatement();
        PreparedStatement count = connection.prepareStatement(
            "SELECT count(*) FROM baton_locks WHERE lock_key = ? AND expires_at >= UTC_TIMESTAMP(6)")) {
      causal.execute("SET SESSION wsrep_sync_wait = 3");
      count.setBytes(1, key.getBytes(StandardCharsets.UTF_8));
      try (ResultSet row = count.executeQuery()) {
        row.next();
        return row.getLong(1);
      }
    }
  }

  /** Whether a plain read at node {@code node}, which does not wait for the cluster, finds the holder expired. */
  private static boolean holderLooksExpiredAt(int node, String key, long token) throws SQLException {
    try (Connection connection = connect(node); PreparedStatement read = connection.prepareStatement(
        "SELECT count(*) FROM baton_locks WHERE lock_key = ? AND entry_id = ? AND expires_at >= UTC_TIMESTAMP(6)")) {
      read.setBytes(1, key.getBytes(StandardCharsets.UTF_8));
      read.setLong(2, token);
      try (ResultSet row = read.executeQuery()) {
        row.next();
        return row.getLong(1) == 0;
      }
    }
  }

  /** Certification failures and brute-force aborts, summed over the running nodes. */
  private static long conflicts() throws SQLException {
    GaleraCluster cluster = galera.cluster();
    long sum = 0;
    for (int node = 0; node < cluster.size(); node++) {
      try (Connection connection = connect(node); Statement statement = connection.createStatement();
          ResultSet rows = statement.executeQuery("SHOW GLOBAL STATUS WHERE Variable_name IN"
              + " ('wsrep_local_cert_failures', 'wsrep_local_bf_aborts')")) {
        while (rows.next()) {
          sum += rows.getLong(2);
        }
      }
    }
    return sum;
  }

  /**
   * The waiter still waits while the holder holds, 2 s after the lag ended, and gets the lock once the holder
   * releases it, with a larger token.
   */
  private static void assertTheWaiterGetsItOnlyOnceReleased(Lease holding, CompletableFuture<Lease> waiting)
      throws Exception {
    await().during(Duration.ofSeconds(2)).atMost(PROMPTLY).until(() -> !waiting.isDone() && holding.isHeld());

    long held = holding.fencingToken();
    holding.close();
    try (Lease next = waiting.get(30, TimeUnit.SECONDS)) {
      assertThat(next.fencingToken()).isGreaterThan(held);
    }
  }
}
