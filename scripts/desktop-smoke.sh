#!/usr/bin/env bash
# Desktop smoke test: start the real Wails window under a virtual X display, take a
# screenshot of the screen, and fail when the window shows nothing (a single colour).
set -euo pipefail
bin=${1:-build/bin/fixthis}
out=${OUT_DIR:-test-results}
mkdir -p "$out"
project=$(mktemp -d)
display=:$(( 90 + RANDOM % 100 ))
# A private adb server for this run, never the user's 5037.
export ANDROID_ADB_SERVER_PORT=$(( 20000 + RANDOM % 20000 ))
cleanup() {
  adb -P "$ANDROID_ADB_SERVER_PORT" kill-server >/dev/null 2>&1 || true
  [ -n "${app_pid:-}" ] && kill "$app_pid" 2>/dev/null || true
  [ -n "${xvfb_pid:-}" ] && kill "$xvfb_pid" 2>/dev/null || true
  wait 2>/dev/null || true
  rm -rf "$project"
}
trap cleanup EXIT

Xvfb "$display" -screen 0 1440x900x24 -nolisten tcp >/dev/null 2>&1 &
xvfb_pid=$!
for _ in $(seq 50); do xdpyinfo -display "$display" >/dev/null 2>&1 && break; sleep 0.1; done 2>/dev/null || sleep 1

# No GPU under Xvfb: software rendering keeps WebKit from drawing a blank surface.
DISPLAY=$display WEBKIT_DISABLE_COMPOSITING_MODE=1 LIBGL_ALWAYS_SOFTWARE=1 \
  "$bin" --project-dir "$project" --no-demo >"$out/desktop-smoke.log" 2>&1 &
app_pid=$!

shot="$out/desktop-window.png"
colours=0
for _ in $(seq 30); do
  sleep 1
  if ! kill -0 "$app_pid" 2>/dev/null; then
    echo "desktop smoke: the app exited early; log:" >&2
    cat "$out/desktop-smoke.log" >&2
    exit 1
  fi
  import -display "$display" -window root "$shot" 2>/dev/null || continue
  colours=$(identify -format '%k' "$shot" 2>/dev/null || echo 0)
  # The console draws text, borders and an accent colour: far more than a handful.
  [ "$colours" -gt 64 ] && break
done
echo "desktop smoke: $colours distinct colours in $shot"
if [ "$colours" -le 64 ]; then
  echo "desktop smoke: the window looks blank" >&2
  cat "$out/desktop-smoke.log" >&2
  exit 1
fi

# The window also serves MCP on its own loopback port, recorded for mcp-config --http.
endpoint="$project/.fixthis/mcp-endpoint.json"
for _ in $(seq 50); do [ -s "$endpoint" ] && break; sleep 0.1; done
if [ ! -s "$endpoint" ]; then
  echo "desktop smoke: no MCP endpoint recorded in $endpoint" >&2
  exit 1
fi
perm=$(stat -c %a "$endpoint")
[ "$perm" = 600 ] || { echo "desktop smoke: $endpoint is $perm, want 600" >&2; exit 1; }
url=$(sed -n 's/.*"url": *"\([^"]*\)".*/\1/p' "$endpoint")
token=$(sed -n 's/.*"token": *"\([^"]*\)".*/\1/p' "$endpoint")
unauth=$(curl -s -o /dev/null -w '%{http_code}' -X POST "$url" -H 'Content-Type: application/json' -d '{}')
init=$(curl -s -X POST "$url" -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \
  -H 'Accept: application/json, text/event-stream' \
  -d '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"smoke","version":"1"}}}')
if [ "$unauth" != 401 ] || ! grep -q '"serverInfo"' <<<"$init"; then
  echo "desktop smoke: MCP at $url answered $unauth without a token and '$init' with it" >&2
  exit 1
fi
echo "desktop smoke: MCP endpoint $url answers (401 without the token, initialize with it)"
