#!/usr/bin/env bash
# The live view comes back after a freeze, in the real window: on the demo phone's
# still screen, Annotate (A) then Select (S) must show the phone again within 2 s,
# as bright as before the freeze, on the H.264 path and on the JPEG path.
#   scripts/desktop-resume.sh [build/bin/fixthis]
set -euo pipefail
bin=${1:-build/bin/fixthis}
out=${OUT_DIR:-test-results}
mkdir -p "$out"
work=$(mktemp -d)
display=:$(( 90 + RANDOM % 100 ))
export ANDROID_ADB_SERVER_PORT=$(( 20000 + RANDOM % 20000 ))
cleanup() {
  [ -n "${app_pid:-}" ] && kill "$app_pid" 2>/dev/null || true
  adb -P "$ANDROID_ADB_SERVER_PORT" kill-server >/dev/null 2>&1 || true
  [ -n "${xvfb_pid:-}" ] && kill "$xvfb_pid" 2>/dev/null || true
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
die() { echo "desktop resume: $*" >&2; [ -f "$work/app.log" ] && tail -20 "$work/app.log" >&2; exit 1; }

Xvfb "$display" -screen 0 1440x900x24 -nolisten tcp >/dev/null 2>&1 &
xvfb_pid=$!
for _ in $(seq 50); do xdpyinfo -display "$display" >/dev/null 2>&1 && break; sleep 0.1; done
export DISPLAY=$display

# The window opens at 90 % of the 1440×900 screen (1296×810); the phone's screen sits
# in the middle of the stage. The crop is well inside it.
crop=200x500+494+190
brightness() { convert "$1" -crop "$crop" -colorspace Gray -format '%[fx:mean]' info:; }
close() { awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 0.05) }'; }
wait_log() { for _ in $(seq "$2"); do grep -q "$1" "$work/app.log" && return 0; sleep 0.1; done; return 1; }

check() {
  local path=$1 transport=$2
  shift 2
  mkdir -p "$work/project-$path"
  : >"$work/app.log"
  WEBKIT_DISABLE_COMPOSITING_MODE=1 LIBGL_ALWAYS_SOFTWARE=1 FIXTHIS_LOG=debug \
    "$bin" --project-dir "$work/project-$path" --demo "$@" >"$work/app.log" 2>&1 &
  app_pid=$!
  wait_log "console paints the live preview\" transport=$transport" 600 || die "$path: the console never painted the demo phone over $transport"
  local wid
  wid=$(xdotool search --sync --onlyvisible --name '^FixThis$' | tail -1)
  [ -n "$wid" ] || die "no FixThis window on $display"
  sleep 1 # the first pictures settle; the demo list is still from here on
  import -window "$wid" "$out/resume-$path-before.png"
  local before
  before=$(brightness "$out/resume-$path-before.png")
  awk -v b="$before" 'BEGIN { exit !(b > 0.3) }' || die "$path: the stage is dark before the freeze ($before)"

  xdotool mousemove --window "$wid" 640 20 # focus follows the pointer without a window manager
  xdotool key a
  wait_log 'msg="froze the preview"' 200 || die "$path: pressing A froze nothing"
  xdotool key s
  wait_log 'msg="resumed the live preview"' 100 || die "$path: pressing S did not resume"
  local t0 now shot got=""
  t0=$(date +%s%N)
  while :; do
    now=$(( ($(date +%s%N) - t0) / 1000000 ))
    shot="$out/resume-$path-after.png"
    import -window "$wid" "$shot"
    got=$(brightness "$shot")
    close "$before" "$got" && break
    [ "$now" -gt 2000 ] && die "$path: 2 s after Select the stage brightness is $got, before the freeze $before (see $shot)"
    sleep 0.1
  done
  echo "desktop resume ($path): stage brightness $before before the freeze, $got ${now} ms after Select"
  # Still there a second later: not one picture between blank ones.
  sleep 1
  import -window "$wid" "$shot"
  got=$(brightness "$shot")
  close "$before" "$got" || die "$path: the stage went dark again after resuming ($got)"
  # And it is live, not a kept picture: scroll the phone and watch the stage change.
  local serial diff=0
  serial=$(adb -P "$ANDROID_ADB_SERVER_PORT" devices | awk 'NR > 1 && $2 == "device" { print $1; exit }')
  [ -n "$serial" ] || die "$path: the demo phone is not on the adb server"
  adb -P "$ANDROID_ADB_SERVER_PORT" -s "$serial" shell input swipe 540 1800 540 700 300
  t0=$(date +%s%N)
  while :; do
    now=$(( ($(date +%s%N) - t0) / 1000000 ))
    import -window "$wid" "$work/scrolled.png"
    convert "$shot" -crop "$crop" "$work/a.png"
    convert "$work/scrolled.png" -crop "$crop" "$work/b.png"
    diff=$(compare -metric AE -fuzz 10% "$work/a.png" "$work/b.png" null: 2>&1 || true)
    [ "${diff%%.*}" -gt 5000 ] 2>/dev/null && break
    [ "$now" -gt 3000 ] && die "$path: the stage did not follow a scroll on the phone within 3 s ($diff pixels changed)"
    sleep 0.1
  done
  cp "$work/scrolled.png" "$out/resume-$path-scrolled.png"
  echo "desktop resume ($path): the stage followed a scroll on the phone after ${now} ms ($diff pixels changed)"
  kill "$app_pid"
  wait "$app_pid" 2>/dev/null || true
  app_pid=""
}

check video h264
check jpeg jpeg --preview jpeg
