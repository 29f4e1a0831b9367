package dev.baton.cli;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
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
    return members(false);
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
    List<ProcessHandle> running = members();
    running.forEach(ProcessHandle::destroy);
    if (!allExit(members(true), grace)) {
      kill();
      allExit(members(true), KILLED_WITHIN);
    }
    return running.size();
  }

  /** The members, and with {@code exited} those that have exited but are not reaped yet (zombies). */
  private List<ProcessHandle> members(boolean exited) {
    List<ProcessHandle> members = new ArrayList<>();
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(PROC, "[0-9]*")) {
      for (Path entry : entries) {
        long pid = Long.parseLong(entry.getFileName().toString());
        if (pid != id && inGroup(entry, exited)) {
          ProcessHandle.of(pid).ifPresent(members::add);
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

  /** Whether the process of {@code /proc/PID} belongs to this group, and runs or {@code exited} is true. */
  private boolean inGroup(Path entry, boolean exited) {
    return stat(entry).filter(fields -> fields[2].equals(Long.toString(id)))
        .map(fields -> exited || !fields[0].equals("Z") && !fields[0].equals("X")).orElse(false);
  }

  /** The fields of {@code /proc/PID/stat} after the command name (which may hold spaces): state, ppid, pgrp, ... */
  private static Optional<String[]> stat(Path entry) {
    try {
      String stat = Files.readString(entry.resolve("stat"));
      String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      return fields.length > 2 ? Optional.of(fields) : Optional.empty();
    } catch (IOException | IndexOutOfBoundsException e) {
      // The process exited while the list was read.
      return Optional.empty();
    }
  }
}
