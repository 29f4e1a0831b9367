package dev.baton.bench.suite;

import com.sun.management.OperatingSystemMXBean;
import dev.baton.servers.MariaDbServer;
import dev.baton.servers.PostgresServer;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.URI;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What one uncontended lock cycle costs on PostgreSQL and MariaDB, for Baton, Spring Integration's
 * {@code JdbcLockRegistry}, ShedLock's JDBC provider and the raw {@code INSERT} + {@code DELETE}: client CPU, server
 * CPU and round trips per cycle, and on MariaDB the server's statements per cycle by kind. {@code bench/sql-cycle-cost}
 * runs it.
 *
 * <p>Each implementation has two clients, one connected straight to the server and one through a
 * {@link TurnCountingProxy}. In each round every implementation, in an order that rotates each round, runs
 * {@code bench.cost.cycles} cycles on one thread on the direct client (wall time, this JVM's CPU time, the cycling
 * thread's CPU time, the server's CPU time, and MariaDB's {@code Com_*} counters), then a tenth of that on the proxied
 * one (round trips and bytes). The CPU of this JVM counts every thread of it: the client's own (a pool's housekeeping,
 * Baton's sweeper) and the JIT's, which the warm-up of {@code bench.cost.warmup} cycles should have quieted.
 */
public final class CycleCost {
  private static final List<Implementation> IMPLEMENTATIONS = List.of(Implementation.BATON_POSTGRES,
      Implementation.JDBC_LOCK_REGISTRY, Implementation.SHEDLOCK_JDBC, Implementation.RAW_POSTGRES,
      Implementation.BATON_MYSQL, Implementation.BATON_MYSQL_DATA_SOURCE, Implementation.JDBC_LOCK_REGISTRY_MYSQL,
      Implementation.SHEDLOCK_JDBC_MYSQL, Implementation.RAW_MYSQL);
  private static final List<String> MARIADB_COUNTERS = List.of("Questions", "Com_select", "Com_insert",
      "Com_insert_select", "Com_update", "Com_delete", "Com_commit", "Com_rollback", "Com_set_option", "Com_begin");
  private static final String KEY = "bench/cycle-cost";

  private CycleCost() {}

  /** Starts PostgreSQL and MariaDB, measures, prints a table per round and the medians, stops the servers. */
  public static void main(String[] args) throws Exception {
    int cycles = Integer.getInteger("bench.cost.cycles", 3000);
    int warmup = Integer.getInteger("bench.cost.warmup", 20_000);
    int rounds = Integer.getInteger("bench.cost.rounds", 3);
    PostgresServer postgres = new PostgresServer();
    MariaDbServer mariaDb = new MariaDbServer();
    postgres.start();
    mariaDb.start();
    try (TurnCountingProxy postgresProxy = new TurnCountingProxy("127.0.0.1", postgres.port());
        TurnCountingProxy mariaDbProxy = new TurnCountingProxy("127.0.0.1", mariaDb.port());
        Connection counters = JdbcTarget.of(mariaDb.uri()).connect()) {
      Endpoints direct = new Endpoints("", "", "", postgres.uri(), "", mariaDb.uri());
      Endpoints proxied = new Endpoints("", "", "", viaPort(postgres.uri(), postgresProxy.port()), "",
          viaPort(mariaDb.uri(), mariaDbProxy.port()));
      Map<Implementation, Measured> measured = new LinkedHashMap<>();
      for (Implementation implementation : IMPLEMENTATIONS) {
        boolean onMariaDb = implementation.store() == Store.MYSQL;
        measured.put(implementation, new Measured(implementation.open(direct), implementation.open(proxied),
            onMariaDb ? mariaDbProxy : postgresProxy, onMariaDb ? mariaDb.pid() : postgres.pid(),
            onMariaDb ? counters : null));
      }
      try {
        for (Map.Entry<Implementation, Measured> entry : measured.entrySet()) {
          entry.getValue().warmUp(warmup);
          System.out.println("warmed up " + entry.getKey());
        }
        List<Implementation> order = new ArrayList<>(IMPLEMENTATIONS);
        for (int round = 0; round < rounds; round++) {
          for (Implementation implementation : order) {
            measured.get(implementation).round(cycles);
          }
          Collections.rotate(order, -1);
          System.out.println("round " + (round + 1) + " done");
        }
        print(measured);
      } finally {
        for (Measured each : measured.values()) {
          each.close();
        }
      }
    } finally {
      mariaDb.stop();
      postgres.stop();
    }
  }

  private static String viaPort(String uri, int port) {
    URI parsed = URI.create(uri);
    return parsed.getScheme() + "://" + parsed.getRawUserInfo() + "@127.0.0.1:" + port + parsed.getRawPath();
  }

  private static void print(Map<Implementation, Measured> measured) {
    System.out.println();
    System.out.println("| store | implementation | cycles/s | client CPU µs/cycle (JVM) | of it the cycling thread "
        + "| server CPU µs/cycle | round trips/cycle | bytes up/down per cycle | server statements/cycle |");
    System.out.println("|---|---|---:|---:|---:|---:|---:|---:|---|");
    measured.forEach((implementation, m) -> System.out.println(String.format(Locale.ROOT,
        "| %s | %s | %s | %s | %s | %s | %.2f | %.0f / %.0f | %s |", implementation.store().label(),
        implementation.label(), m.range(m.rates), m.range(m.processCpu), m.range(m.threadCpu), m.range(m.serverCpu),
        m.turns, m.bytesUp, m.bytesDown, m.statements)));
  }

  /** The two clients of one implementation and what their rounds measured. */
  private static final class Measured {
    private final Contender direct;
    private final Contender proxied;
    private final Locker directLocker;
    private final Locker proxiedLocker;
    private final TurnCountingProxy proxy;
    private final long serverPid;
    private final Connection counters;
    private final List<Double> rates = new ArrayList<>();
    private final List<Double> processCpu = new ArrayList<>();
    private final List<Double> threadCpu = new ArrayList<>();
    private final List<Double> serverCpu = new ArrayList<>();
    private double turns;
    private double bytesUp;
    private double bytesDown;
    private String statements = "";

    Measured(Contender direct, Contender proxied, TurnCountingProxy proxy, long serverPid, Connection counters)
        throws Exception {
      this.direct = direct;
      this.proxied = proxied;
      this.directLocker = direct.locker(KEY, Hold.LOCK);
      this.proxiedLocker = proxied.locker(KEY + "-proxied", Hold.LOCK);
      this.proxy = proxy;
      this.serverPid = serverPid;
      this.counters = counters;
    }

    void warmUp(int cycles) throws Exception {
      cycle(directLocker, cycles);
      cycle(proxiedLocker, cycles / 10);
    }

    void round(int cycles) throws Exception {
      OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
      ThreadMXBean threads = ManagementFactory.getThreadMXBean();
      Map<String, Long> countersBefore = mariaDbCounters();
      long serverBefore = ServerCpu.nanos(serverPid);
      long processBefore = os.getProcessCpuTime();
      long threadBefore = threads.getCurrentThreadCpuTime();
      long start = System.nanoTime();
      cycle(directLocker, cycles);
      long elapsed = System.nanoTime() - start;
      threadCpu.add((threads.getCurrentThreadCpuTime() - threadBefore) / 1e3 / cycles);
      processCpu.add((os.getProcessCpuTime() - processBefore) / 1e3 / cycles);
      serverCpu.add((ServerCpu.nanos(serverPid) - serverBefore) / 1e3 / cycles);
      rates.add(cycles * 1e9 / elapsed);
      Map<String, Long> countersAfter = mariaDbCounters();
      if (!countersAfter.isEmpty()) {
        StringBuilder line = new StringBuilder();
        for (String name : MARIADB_COUNTERS) {
          double perCycle = (countersAfter.get(name) - countersBefore.get(name)) / (double) cycles;
          if (perCycle >= 0.005) {
            line.append(line.isEmpty() ? "" : ", ").append(name).append(' ')
                .append(String.format(Locale.ROOT, "%.2f", perCycle));
          }
        }
        statements = line.toString();
      }
      int proxiedCycles = Math.max(1, cycles / 10);
      long turnsBefore = proxy.turns();
      long upBefore = proxy.bytesUp();
      long downBefore = proxy.bytesDown();
      cycle(proxiedLocker, proxiedCycles);
      turns = (proxy.turns() - turnsBefore) / (double) proxiedCycles;
      bytesUp = (proxy.bytesUp() - upBefore) / (double) proxiedCycles;
      bytesDown = (proxy.bytesDown() - downBefore) / (double) proxiedCycles;
    }

    private Map<String, Long> mariaDbCounters() throws SQLException {
      Map<String, Long> values = new LinkedHashMap<>();
      if (counters == null) {
        return values;
      }
      try (Statement statement = counters.createStatement();
          ResultSet rows = statement.executeQuery("SHOW GLOBAL STATUS WHERE Variable_name IN ('"
              + String.join("', '", MARIADB_COUNTERS) + "')")) {
        while (rows.next()) {
          values.put(rows.getString(1), rows.getLong(2));
        }
      }
      return values;
    }

    private static void cycle(Locker locker, int cycles) throws Exception {
      for (int i = 0; i < cycles; i++) {
        locker.lock();
        locker.unlock();
      }
    }

    /** The median of {@code values} and their min-max. */
    String range(List<Double> values) {
      List<Double> sorted = values.stream().sorted().toList();
      return String.format(Locale.ROOT, "%.0f (%.0f-%.0f)", sorted.get(sorted.size() / 2), sorted.get(0),
          sorted.get(sorted.size() - 1));
    }

    void close() throws Exception {
      direct.close();
      proxied.close();
    }
  }
}
