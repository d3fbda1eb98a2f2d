#!/usr/bin/env bash
# The live preview in the desktop window (WebKitGTK under Xvfb), while the demo list
# scrolls over a simulated USB 2 cable: which decoder the window uses, the frames it
# paints per second and the latency p50. The window has no automation hook, so the
# figures come from the reports every console sends (POST /api/preview/stats), which
# the app logs at debug level (FIXTHIS_LOG=debug).
# Usage: BENCHCLIENT=path scripts/bench-window.sh [fixthis binary]; called by bench.sh.
set -euo pipefail
bin=${1:-build/bin/fixthis}
bc=${BENCHCLIENT:?set BENCHCLIENT to a built scripts/benchclient}
secs=${BENCH_VIDEO_SECONDS:-6}
work=$(mktemp -d "${TMPDIR:-/tmp}/fixthis-bench-window.XXXXXX")
display=:$(( 90 + RANDOM % 100 ))
export ANDROID_ADB_SERVER_PORT=$(( 20000 + RANDOM % 20000 ))
cleanup() {
  [ -n "${sim_pid:-}" ] && kill -INT "$sim_pid" 2>/dev/null || true
  [ -n "${app_pid:-}" ] && kill "$app_pid" 2>/dev/null || true
  [ -n "${xvfb_pid:-}" ] && kill "$xvfb_pid" 2>/dev/null || true
  wait 2>/dev/null || true
  adb -P "$ANDROID_ADB_SERVER_PORT" kill-server >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
die() { echo "bench-window: $*" >&2; [ -f "$work/app.log" ] && tail -20 "$work/app.log" >&2; exit 1; }

mkdir -p "$work/project"
Xvfb "$display" -screen 0 1440x900x24 -nolisten tcp >/dev/null 2>&1 &
xvfb_pid=$!
adb start-server >/dev/null 2>&1
"$bin" sim --connect --json --link usb2 >"$work/sim.json" 2>"$work/sim.log" &
sim_pid=$!
for _ in $(seq 200); do [ -s "$work/sim.json" ] && break; sleep 0.1; done
serial=$(sed -n 's/.*"serial": *"\([^"]*\)".*/\1/p' "$work/sim.json" | head -1)
[ -n "$serial" ] || die "the simulated phone did not start: $(cat "$work/sim.log")"

DISPLAY=$display WEBKIT_DISABLE_COMPOSITING_MODE=1 LIBGL_ALWAYS_SOFTWARE=1 FIXTHIS_LOG=debug \
  "$bin" --project-dir "$work/project" --no-demo >"$work/app.log" 2>&1 &
app_pid=$!

# reports prints "unix-ms framesPainted transport decoder" per logged report.
reports() {
  grep 'msg="console paints the live preview"' "$work/app.log" | while read -r line; do
    t=$(sed -n 's/^time=\([^ ]*\).*/\1/p' <<<"$line")
    frames=$(sed -n 's/.* framesPainted=\([0-9]*\).*/\1/p' <<<"$line")
    transport=$(sed -n 's/.* transport=\([a-z0-9]*\).*/\1/p' <<<"$line")
    decoder=$(sed -n 's/.* decoder="\([^"]*\)".*/\1/p' <<<"$line")
    echo "$(date -d "$t" +%s%3N) $frames $transport $decoder"
  done
}
# Wait for a report of painted video (or, after 40 s, settle for JPEG).
for i in $(seq 80); do
  kill -0 "$app_pid" 2>/dev/null || die "the window exited"
  [[ $(reports) == *' h264 '* ]] && break # not grep -q: under pipefail its early exit fails the pipe
  sleep 0.5
done
[[ $(reports) == *' h264 '* ]] || echo "bench-window: no video report in 40 s; measuring what the window paints"
sleep 2.5 # one more report, so the count before the scroll is current
before=$(reports | tail -1)
"$bc" drive -serial "$serial" -adb-port "$ANDROID_ADB_SERVER_PORT" -seconds "$secs" >/dev/null
sleep 2.5 # the report that covers the end of the scroll
after=$(reports | tail -1)
read -r t0 f0 _ <<<"$before"
read -r t1 f1 transport decoder <<<"$after"
p50=$(grep 'msg="console paints the live preview"' "$work/app.log" | tail -2 | head -1 | sed -n 's/.* latencyMsP50=\([0-9.-]*\).*/\1/p')
# The screen only changes while the driver scrolls, so every picture painted between
# the two reports is one of the scroll's, including any the window painted late.
fps=$(awk -v f="$((f1 - f0))" -v s="$secs" 'BEGIN { printf "%.1f", f / s }')
echo "  window (WebKitGTK under Xvfb, usb2): $transport via $decoder"
echo "    $((f1 - f0)) pictures painted for a ${secs}-s scroll: $fps per second of scrolling;"
echo "    latency p50 at the end of the scroll ${p50} ms (reports $(( (t1 - t0) / 1000 )) s apart)"
