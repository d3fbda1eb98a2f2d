#!/usr/bin/env bash
# Runs every Go fuzz target for FUZZTIME (default 5s) each. `go test ./...` (make
# test) already runs each target on its seed corpus; this mutates beyond it. A
# failure leaves the input under the package's testdata/fuzz/ and stops the run.
set -euo pipefail
cd "$(dirname "$0")/.."
FUZZTIME="${FUZZTIME:-5s}"
n=0
while IFS=: read -r file name; do
	pkg="./$(dirname "$file")"
	echo "==> $pkg $name ($FUZZTIME)"
	go test -run '^$' -fuzz "^${name}\$" -fuzztime "$FUZZTIME" "$pkg"
	n=$((n + 1))
done < <(grep -rho --include='*_test.go' -H '^func Fuzz[A-Za-z0-9_]*' --exclude-dir=node_modules . |
	sed 's|^\./||; s|:func |:|' | sort -u)
echo "fuzz: $n targets passed"
