#!/usr/bin/env bash
# Say clearly what is missing instead of failing deep inside a build.
set -euo pipefail
fail=0
if ! command -v go >/dev/null 2>&1; then
  echo "error: Go is not installed. Install Go 1.26 or newer (https://go.dev/doc/install) and put it on PATH." >&2
  fail=1
fi
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  echo "error: Node.js 20.19+ with npm is needed to build the console. Install it from your distribution or nodejs.org." >&2
  fail=1
else
  major=$(node -p 'process.versions.node.split(".")[0]')
  if [ "$major" -lt 20 ]; then
    echo "error: Node.js $(node --version) is too old; the console build (Vite 7) needs 20.19 or newer." >&2
    fail=1
  fi
fi
exit $fail
