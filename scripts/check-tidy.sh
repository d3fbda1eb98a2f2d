#!/usr/bin/env bash
# Fails when a Go module's go.mod or go.sum is not what `go mod tidy` would write: a
# direct import listed as indirect, a requirement nothing uses, a stale checksum. The
# repository holds several modules (the app, and tools with dependencies of their own
# that must not reach the app's go.mod); each is checked on its own.
set -euo pipefail
cd "$(dirname "$0")/.."
status=0
while IFS= read -r mod; do
  dir=$(dirname "$mod")
  if ! out=$(cd "$dir" && go mod tidy -diff 2>&1); then
    echo "check-tidy: $dir is not tidy; run (cd $dir && go mod tidy):" >&2
    echo "$out" >&2
    status=1
  fi
done < <(find . -name go.mod -not -path './frontend/*' -not -path './tests/mcp/node_modules/*' -not -path './build/*' | sort)
exit $status
