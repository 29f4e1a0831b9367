package dev.baton.cli;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The processes of the process group that the supervisor of {@code baton exec} leads: the command and whatever it
 * started, including processes whose parent has exited (which a walk of the process tree misses). Read from
 * {@code /proc} (Linux), where each process's group is the fifth field of {@code /proc/PID/stat}.
 */
final class ProcessGroup {
  private static final Path PROC = Path.of("/proc");
  /** How long processes sent SIGKILL may take to be gone before baton goes on without them. */
  private static final Duration KILLED_WITHIN = Duration.ofSeconds(5);

  private final long id;

  /** The group whose id is the pid of its leader, {@code leader}. */
  ProcessGroup(long leader) {
    this.id = leader;
  }

  /** The processes of the group other than its leader that still run, as they are now. */
  List<ProcessHandle> members() {
    List<ProcessHandle> running = new ArrayList<>();
    members(false, running);
    return running;
  }

  /** Sends SIGTERM to the members now. */
  void terminate() {
    members().forEach(ProcessHandle::destroy);
  }

  /** Sends SIGKILL to the members now. */
  void kill() {
    members().forEach(ProcessHandle::destroyForcibly);
  }

  /**
   * Stops the members: SIGTERM, then SIGKILL to those still there after {@code grace}; returns once they are gone,
   * reaped too (or, for processes that even SIGKILL does not end at once, 5 s later).
   *
   * @return how many members still ran
   */
  int stop(Duration grace) throws InterruptedException {
    // A walk of /proc reads every process's stat: on a busy host that is felt, so the usual case (the command left
    // nothing running) walks once. Otherwise the walk after SIGTERM also finds what the members started meanwhile.
    List<ProcessHandle> running = new ArrayList<>();
    List<ProcessHandle> all = members(true, running);
    running.forEach(ProcessHandle::destroy);
    if (!allExit(running.isEmpty() ? all : members(true, new ArrayList<>()), grace)) {
      kill();
      allExit(members(true, new ArrayList<>()), KILLED_WITHIN);
    }
    return running.size();
  }

  /**
   * The members, and with {@code exited} those that have exited but are not reaped yet (zombies); those that still
   * run are added to {@code running} too.
   */
  private List<ProcessHandle> members(boolean exited, List<ProcessHandle> running) {
    List<ProcessHandle> members = new ArrayList<>();
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(PROC, "[0-9]*")) {
      for (Path entry : entries) {
        long pid = Long.parseLong(entry.getFileName().toString());
        Membership membership = pid == id ? Membership.OUTSIDE : membership(entry);
        if (membership == Membership.RUNNING || membership == Membership.EXITED && exited) {
          ProcessHandle.of(pid).ifPresent(member -> {
            members.add(member);
            if (membership == Membership.RUNNING) {
              running.add(member);
            }
          });
        }
      }
    } catch (IOException e) {
      // No /proc: no members that baton can see.
    }
    return members;
  }

  private static boolean allExit(List<ProcessHandle> processes, Duration within) throws InterruptedException {
    try {
      CompletableFuture.allOf(processes.stream().map(ProcessHandle::onExit).toArray(CompletableFuture[]::new))
          .get(within.toMillis(), TimeUnit.MILLISECONDS);
      return true;
    } catch (TimeoutException e) {
      return false;
    } catch (ExecutionException e) {
      throw new IllegalStateException("Waiting for the command's processes failed", e.getCause());
    }
  }

  /** Where a process stands towards the group. */
  private enum Membership {
    /** Not in the group, or gone. */
    OUTSIDE,
    /** In the group, and running (or stopped). */
    RUNNING,
    /** In the group, exited but not reaped yet. */
    EXITED
  }

  /** Where the process of {@code /proc/PID} stands towards this group. */
  private Membership membership(Path entry) {
    String stat;
    try {
      stat = Files.readString(entry.resolve("stat"));
    } catch (IOException e) {
      return Membership.OUTSIDE; // the process exited while the list was read
    }
    // After the command name, which may hold spaces and parentheses: state, ppid, pgrp, ...
    int state = stat.lastIndexOf(')') + 2;
    int ppidEnd = state < 2 ? -1 : stat.indexOf(' ', state + 2);
    int pgrpEnd = ppidEnd < 0 ? -1 : stat.indexOf(' ', ppidEnd + 1);
    if (pgrpEnd < 0 || !stat.substring(ppidEnd + 1, pgrpEnd).equals(Long.toString(id))) {
      return Membership.OUTSIDE;
    }
    char code = stat.charAt(state);
    return code == 'Z' || code == 'X' ? Membership.EXITED : Membership.RUNNING;
  }
}
