#!/usr/bin/env bash
# Install the named Debian/Ubuntu packages that are not installed yet. Quick when
# everything is present: it only asks dpkg. Uses sudo when not root.
set -euo pipefail
missing=()
for pkg in "$@"; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$pkg")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0
printf '\n==> Installing %d missing system packages with apt: %s\n' "${#missing[@]}" "${missing[*]}"
echo "    On a fresh machine this takes several minutes (Chromium, lintian, NSIS and the WebKitGTK headers are large); later runs skip it."
if [ "$(id -u)" -eq 0 ]; then
  SUDO=()
elif command -v sudo >/dev/null 2>&1; then
  SUDO=(sudo)
else
  echo "error: missing packages ${missing[*]} and neither root nor sudo is available." >&2
  echo "Install them yourself: apt-get install ${missing[*]}" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
echo "==> apt-get update"
"${SUDO[@]}" apt-get update -qq
# -q, not -qq: one line per package unpacked and set up, so a long install shows progress.
echo "==> apt-get install"
"${SUDO[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
