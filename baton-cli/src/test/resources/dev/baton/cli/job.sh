# A job for `baton exec` in tests: sh job.sh NAME [grandchild]
#
# Runs in the directory it is started in. Writes its pid to NAME.command.pid (NAME.grandchild.pid for the
# child it starts, NAME.sleep.pid for the sleep that child starts), appends "NAME command start" to the file
# "log" when it starts and "NAME command end" when SIGTERM ends it, and starts a child of its own that does the
# same as "NAME grandchild". Once all three run, the grandchild prints "NAME running"; then they wait until a
# signal ends them.
name=$1
role=${2:-command}
trap 'echo "$name $role end" >> log; exit 143' TERM
echo $$ > "$name.$role.pid"
echo "$name $role start" >> log
if [ "$role" = command ]; then
  sh "$0" "$name" grandchild &
else
  sleep 1000 &
  echo $! > "$name.sleep.pid"
  echo "$name running"
fi
wait
