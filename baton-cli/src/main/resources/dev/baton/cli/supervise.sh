# The supervisor of `baton exec`: a shell between baton's JVM and the command, so that the command cannot
# outlive baton and run on after the lock has passed to someone else. baton (Supervisor.java) starts it as
#
#   setsid setpriv --pdeathsig USR1 sh -c "<this script>" baton-exec JVM_PID GRACE CMD [ARG...]
#
# setsid makes this shell the leader of a new session and process group, which the command and whatever it
# starts belong to. setpriv has the kernel send this shell SIGUSR1 when the thread of baton that started it
# ends, which happens at the latest when the JVM dies, however it dies: SIGKILL, the OOM killer, a crash.
#
#   SIGUSR1 (baton died):         SIGTERM to the whole group, SIGKILL GRACE seconds later (this shell too).
#   SIGTERM, SIGINT, SIGHUP:      passed on to the command, as baton passes them on to this shell.
#   the command's end:            this shell exits with the command's status (128+N if signal N killed it).
#
# While baton lives, baton stops the group itself (a lost lock, processes the command left behind).
jvm=$1
grace=$2
shift 2

baton_died() {
  trap '' TERM INT HUP USR1
  # Whoever reads baton's output (a pipe to tee, a test) sees its end once the command's processes are gone.
  exec </dev/null >/dev/null 2>&1
  kill -s TERM 0
  sleep "$grace"
  kill -s KILL 0
}
trap baton_died USR1
# The parent-death signal was asked for after baton started this process: if baton was gone by then, no signal
# will come, and the parent is no longer baton.
[ "$PPID" = "$jvm" ] || exit 70

child=
pending=
forward() {
  interrupted=yes
  if [ -n "$child" ]; then
    kill -s "$1" "$child" 2>/dev/null
  else
    pending=$1
  fi
}
trap 'forward TERM' TERM
trap 'forward INT' INT
trap 'forward HUP' HUP

# A command started with & gets /dev/null as its stdin and SIGINT and SIGQUIT ignored: it gets baton's stdin
# back (kept in fd 3 meanwhile) and those signals' default actions, as if baton had started it.
exec 3<&0
env --default-signal=INT,QUIT "$@" 0<&3 3<&- &
child=$!
exec 3<&-
if [ -n "$pending" ]; then
  kill -s "$pending" "$child" 2>/dev/null
fi

# A signal trapped while waiting ends the wait early: wait again, until the command has ended. The shell keeps
# the status of the command it started, so a wait after the end still gets it. Its messages ("Terminated") are
# not baton's to print.
while :; do
  interrupted=
  wait "$child" 2>/dev/null
  status=$?
  [ -n "$interrupted" ] || break
done
exit "$status"
