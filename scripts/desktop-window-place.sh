#!/usr/bin/env bash
# The desktop window fits the screen: under Xvfb at 1280x800 and 1920x1080 it opens
# inside the monitor (at most 90 % of it, centred, 1440x900 at most), keeps the place
# it had when it closed, and a place saved on a larger monitor is clamped to this one.
set -euo pipefail
bin=${1:-build/bin/fixthis}
out=${OUT_DIR:-test-results}
mkdir -p "$out"
cfg=$(mktemp -d)
project=$(mktemp -d)
export ANDROID_ADB_SERVER_PORT=$(( 20000 + RANDOM % 20000 ))
cleanup() {
  [ -n "${app_pid:-}" ] && kill -9 "$app_pid" 2>/dev/null || true
  [ -n "${xvfb_pid:-}" ] && kill "$xvfb_pid" 2>/dev/null || true
  adb -P "$ANDROID_ADB_SERVER_PORT" kill-server >/dev/null 2>&1 || true
  wait 2>/dev/null || true
  rm -rf "$cfg" "$project"
}
trap cleanup EXIT

# open RES: starts Xvfb at RES and the window on it; sets geometry to "X Y W H".
open_window() {
  display=:$(( 90 + RANDOM % 100 ))
  Xvfb "$display" -screen 0 "${1}x24" -nolisten tcp >/dev/null 2>&1 &
  xvfb_pid=$!
  for _ in $(seq 50); do xdpyinfo -display "$display" >/dev/null 2>&1 && break; sleep 0.1; done
  DISPLAY=$display XDG_CONFIG_HOME=$cfg WEBKIT_DISABLE_COMPOSITING_MODE=1 LIBGL_ALWAYS_SOFTWARE=1 \
    "$bin" --project-dir "$project" --no-demo >"$out/desktop-place.log" 2>&1 &
  app_pid=$!
  id=""
  for _ in $(seq 60); do
    id=$(DISPLAY=$display xwininfo -root -tree 2>/dev/null | awk '/"FixThis"/ {print $1; exit}')
    [ -n "$id" ] && break
    sleep 0.25
  done
  [ -n "$id" ] || { echo "desktop place: no FixThis window at $1" >&2; cat "$out/desktop-place.log" >&2; exit 1; }
  # The saved place is applied once the page has loaded, and the app logs "window
  # placed" after it: wait for that line (a loaded machine may take a while), then
  # until the X server's geometry holds still.
  for _ in $(seq 120); do
    grep -q 'msg="window placed"' "$out/desktop-place.log" && break
    sleep 0.25
  done
  grep -q 'msg="window placed"' "$out/desktop-place.log" ||
    { echo "desktop place: the window never said where it was placed at $1" >&2; cat "$out/desktop-place.log" >&2; exit 1; }
  local last="" now=""
  for _ in $(seq 40); do
    now=$(DISPLAY=$display xwininfo -id "$id" | awk '/Absolute upper-left X/ {x=$NF} /Absolute upper-left Y/ {y=$NF} /^ *Width/ {w=$NF} /^ *Height/ {h=$NF} END {print x, y, w, h}')
    [ "$now" = "$last" ] && break
    last=$now
    sleep 0.25
  done
  geometry=$now
}

# close: SIGTERM closes the window as its close button does; the place is saved.
close_window() {
  kill -TERM "$app_pid"
  for _ in $(seq 40); do kill -0 "$app_pid" 2>/dev/null || break; sleep 0.25; done
  if kill -0 "$app_pid" 2>/dev/null; then echo "desktop place: the window ignored SIGTERM" >&2; exit 1; fi
  app_pid=""
  kill "$xvfb_pid"; wait "$xvfb_pid" 2>/dev/null || true; xvfb_pid=""
}

expect() { # label got want
  if [ "$2" != "$3" ]; then echo "desktop place: $1: window at '$2', want '$3'" >&2; exit 1; fi
  echo "desktop place: $1: $2"
}

open_window 1280x800
expect "1280x800, first start (90 %, centred)" "$geometry" "64 40 1152 720"
close_window
saved=$(cat "$cfg/fixthis/window.json")
[ "$(stat -c %a "$cfg/fixthis/window.json")" = 600 ] || { echo "desktop place: saved place is not 0600" >&2; exit 1; }
echo "desktop place: saved $saved"

open_window 1920x1080
expect "1920x1080, the saved place kept" "$geometry" "64 40 1152 720"
close_window

rm -f "$cfg/fixthis/window.json"
open_window 1920x1080
expect "1920x1080, first start (preferred size, centred)" "$geometry" "240 90 1440 900"
close_window

printf '{"x":600,"y":300,"width":1700,"height":1000}' >"$cfg/fixthis/window.json"
open_window 1280x800
expect "1280x800, a place saved on a larger monitor is clamped" "$geometry" "0 0 1280 800"
close_window
