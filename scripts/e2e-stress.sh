#!/usr/bin/env bash
# Runs the whole e2e suite several times in a row while stress-ng keeps every core
# busy, and counts the runs that failed: the proof that no test waits on time.
#   scripts/e2e-stress.sh [RUNS]   (default 5; FIXTHIS_BIN must point at fixthis)
set -uo pipefail
runs=${1:-5}
cores=$(nproc)
: "${FIXTHIS_BIN:?set FIXTHIS_BIN to the fixthis binary}"
command -v stress-ng >/dev/null || { echo "error: stress-ng is not installed (make deps-test installs it)" >&2; exit 1; }
logdir=$(mktemp -d -t fixthis-e2e-stress.XXXXXX)
stress-ng --cpu "$cores" --cpu-method matrixprod --quiet &
stress=$!
trap 'kill $stress 2>/dev/null; wait $stress 2>/dev/null' EXIT
failed=0
start=$(date +%s)
for i in $(seq 1 "$runs"); do
  t0=$(date +%s)
  if (cd frontend && npm run --silent e2e) >"$logdir/run-$i.log" 2>&1; then
    result=pass
  else
    result=FAIL
    failed=$((failed + 1))
  fi
  tests=$(grep -E '^# (pass|fail) ' "$logdir/run-$i.log" | tr '\n' ' ')
  printf '==> e2e run %d/%d under stress-ng --cpu %d: %s in %ds (%s)\n' "$i" "$runs" "$cores" "$result" $(($(date +%s) - t0)) "$tests"
  [ "$result" = FAIL ] && grep -E '^\s*not ok' "$logdir/run-$i.log" | sed 's/^/    /'
done
printf '==> %d of %d runs failed under full CPU load (%ds); logs in %s\n' "$failed" "$runs" $(($(date +%s) - start)) "$logdir"
[ "$failed" -eq 0 ]
