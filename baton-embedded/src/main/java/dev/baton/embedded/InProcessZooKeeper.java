package dev.baton.embedded;

import java.lang.reflect.Field;
import java.util.Optional;
import java.util.Timer;
import org.apache.zookeeper.server.ContainerManager;
import org.apache.zookeeper.server.ZooKeeperServer;
import org.apache.zookeeper.server.quorum.LeaderZooKeeperServer;
import org.apache.zookeeper.util.ServiceUtils;

/**
 * What running ZooKeeper servers inside the test JVM takes, beyond starting them: keeping them from ending
 * the JVM, and stopping the one thread ZooKeeper forgets.
 */
final class InProcessZooKeeper {
  private static final String ADMIN_SERVER_PROPERTY = "zookeeper.admin.enableServer";

  private InProcessZooKeeper() {}

  /**
   * Prepares the JVM, once per server start (it is idempotent):
   *
   * <ul>
   *   <li>ZooKeeper calls {@code System.exit} on some fatal errors (a quorum port it cannot bind, a follower
   *       out of step with its leader); in-process that would end the test run, so it only logs them instead.
   *   <li>The admin server (Jetty, not on the class path) is turned off, unless the property
   *       {@code zookeeper.admin.enableServer} is already set, so that each start does not log a warning with a
   *       stack trace.
   * </ul>
   */
  static void prepareJvm() {
    ServiceUtils.setSystemExitProcedure(ServiceUtils.LOG_ONLY);
    if (System.getProperty(ADMIN_SERVER_PROPERTY) == null) {
      System.setProperty(ADMIN_SERVER_PROPERTY, "false");
    }
  }

  /**
   * Stops a container manager for good. {@link ContainerManager#stop()} cancels its task but leaves the
   * {@code ContainerManagerTask} timer thread of its constructor running; this cancels the timer too. Best
   * effort: if a later ZooKeeper renames the field, the idle daemon thread stays, and nothing else changes.
   */
  static void stopContainerManager(ContainerManager containers) {
    containers.stop();
    readField(ContainerManager.class, containers, "timer", Timer.class).ifPresent(Timer::cancel);
  }

  /** The container manager of a leader's server, to {@link #stopContainerManager stop} it after the leader stops. */
  static Optional<ContainerManager> containerManagerOf(ZooKeeperServer server) {
    if (!(server instanceof LeaderZooKeeperServer)) {
      return Optional.empty();
    }
    return readField(LeaderZooKeeperServer.class, server, "containerManager", ContainerManager.class);
  }

  private static <T> Optional<T> readField(Class<?> owner, Object target, String name, Class<T> type) {
    try {
      Field field = owner.getDeclaredField(name);
      field.setAccessible(true);
      return Optional.ofNullable(type.cast(field.get(target)));
    } catch (ReflectiveOperationException | RuntimeException e) {
      return Optional.empty();
    }
  }
}
