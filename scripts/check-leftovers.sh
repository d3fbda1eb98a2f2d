#!/usr/bin/env bash
# Fails when a process a test run started is still running after it: a fixthis serve
# or sim, a private adb server, the fake Realtime server, a browser, a virtual display.
# make test and make test-e2e export FIXTHIS_TEST_RUN, a marker unique to the run, and
# every process they start inherits it (an adb server too: the daemon keeps the
# environment of the client that forked it). So the processes whose environment
# carries this run's marker, other than this script and the make and shells running
# it, are leftovers: they are listed, then ended, and the check fails. Processes of
# other runs, or of the user, carry no marker or another one and are never touched.
set -euo pipefail
run=${FIXTHIS_TEST_RUN:?FIXTHIS_TEST_RUN is not set; make test sets it}
marker="FIXTHIS_TEST_RUN=$run"

# This script and its ancestors carry the marker as well: they are running the check.
declare -A running_check=()
pid=$$
while [ "${pid:-1}" -gt 1 ]; do
  running_check[$pid]=1
  pid=$(awk '/^PPid:/ { print $2 }' "/proc/$pid/status" 2>/dev/null || echo 1)
done

# has_marker PID: whether PID's environment holds this run's marker.
has_marker() {
  local entry
  while IFS= read -r -d '' entry; do
    [ "$entry" = "$marker" ] && return 0
  done <"/proc/$1/environ"
  return 1
} 2>/dev/null

leftovers=()
for dir in /proc/[0-9]*; do
  pid=${dir#/proc/}
  [ -n "${running_check[$pid]:-}" ] && continue
  has_marker "$pid" && leftovers+=("$pid")
done
[ ${#leftovers[@]} -eq 0 ] && exit 0

echo "check-leftovers: ${#leftovers[@]} process(es) the tests started are still running:" >&2
for pid in "${leftovers[@]}"; do
  args=$(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | cut -c1-200) || continue
  echo "  $pid: $args" >&2
done
echo "check-leftovers: ending them; the test that started each must end it, also on failure." >&2
kill -TERM "${leftovers[@]}" 2>/dev/null || true
for _ in $(seq 20); do
  alive=()
  for pid in "${leftovers[@]}"; do [ -d "/proc/$pid" ] && alive+=("$pid"); done
  [ ${#alive[@]} -eq 0 ] && break
  sleep 0.1
done
[ ${#alive[@]} -eq 0 ] || kill -KILL "${alive[@]}" 2>/dev/null || true
exit 1
