package dev.baton.zookeeper;

import java.lang.management.ManagementFactory;
import javax.management.InstanceNotFoundException;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;

/**
 * What an in-process ZooKeeper server has counted for one client session, read from the MBean it registers in
 * the platform MBean server for each client connection.
 *
 * @param requests the xid of the session's last request the server answered. A client numbers its requests
 *     1, 2, 3... and gives pings (and the other requests it makes by itself: auth, watch re-registration) reserved
 *     negative xids that the server leaves out here, so the difference between two readings is the number of
 *     requests the session sent in between, pings excluded
 * @param packets the packets the server received on the connection, pings included
 * @param lastOperation the kind of the last request answered, as the server abbreviates it: {@code CREA},
 *     {@code GETC}, {@code DELE}, {@code EXIS}, {@code GETD}, {@code PING}...
 */
record SessionCounters(long requests, long packets, String lastOperation) {
  private static final ObjectName CONNECTIONS = objectName("org.apache.ZooKeeperService:name1=Connections,*");

  /**
   * Reads the counters of the connection of session {@code sessionId} now.
   *
   * @throws IllegalStateException if no server in this JVM has a connection of that session
   */
  static SessionCounters of(long sessionId) {
    String session = "0x" + Long.toHexString(sessionId);
    MBeanServer beans = ManagementFactory.getPlatformMBeanServer();
    for (ObjectName connection : beans.queryNames(CONNECTIONS, null)) {
      try {
        if (session.equals(beans.getAttribute(connection, "SessionId"))) {
          String lastCxid = (String) beans.getAttribute(connection, "LastCxid");
          return new SessionCounters(Long.parseUnsignedLong(lastCxid.substring(2), 16),
              (Long) beans.getAttribute(connection, "PacketsReceived"),
              (String) beans.getAttribute(connection, "LastOperation"));
        }
      } catch (InstanceNotFoundException closedMeanwhile) {
        // Another client's connection, gone since the query.
      } catch (JMException e) {
        throw new IllegalStateException("Could not read ZooKeeper's connection MBean " + connection + ": " + e, e);
      }
    }
    throw new IllegalStateException("No ZooKeeper server in this JVM has a connection of session " + session + ".");
  }

  private static ObjectName objectName(String name) {
    try {
      return new ObjectName(name);
    } catch (MalformedObjectNameException e) {
      throw new IllegalArgumentException(name, e);
    }
  }

  /** The requests the session sent between {@code earlier} and this reading. */
  long requestsSince(SessionCounters earlier) {
    return requests - earlier.requests;
  }
}
