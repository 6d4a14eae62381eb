#!/usr/bin/env bash
# The slow-machine run: the packages that wait on terraform, the Docker
# engine and the fakes (by default the whole suite, as make test runs it),
# with a CPU hog on every CPU beside them, as on a shared CI runner whose
# other jobs keep every CPU busy. The suite must pass here as it does on a
# quiet machine: no test may depend on how fast the machine is.
#
# The hogs are plain busy loops at the tests' own priority. After the run
# it prints where the time went (internal/testtimes): each package's wall
# time beside the share of its -timeout it used, marking those at half or
# more, and the slowest tests. HOGS=0 runs the same without hogs: the quiet
# figures to compare with.
#
# Usage: scripts/test-slow.sh TIMEOUT PACKAGE...
# Environment:
#   HOGS        how many busy loops (default: one per CPU, nproc)
#   TEST_LOG    where go test's JSON events are kept (default: a temporary file)
#   GOGC, TF_ACC and the rest pass through to go test.
set -euo pipefail
cd "$(dirname "$0")/.."

timeout=${1:?usage: scripts/test-slow.sh TIMEOUT PACKAGE...}
shift
hogs=${HOGS:-$(nproc)}
log=${TEST_LOG:-$(mktemp)}

go build -o bin/testtimes ./internal/testtimes/cmd/testtimes

hog_pids=()
stop_hogs() {
  if [ "${#hog_pids[@]}" -gt 0 ]; then kill "${hog_pids[@]}" 2>/dev/null || true; fi
}
trap stop_hogs EXIT
for _ in $(seq 1 "$hogs"); do
  bash -c 'while :; do :; done' &
  hog_pids+=($!)
done
echo "==> go test with $hogs CPU hog(s) beside it on $(nproc) CPU(s); events in $log"

start=$SECONDS
rc=0
# testtimes prints each package's line as it ends, then the failures'
# output and the report; the events are kept in $log.
go test -json -count=1 -timeout "$timeout" -p 3 "$@" 2>&1 | tee "$log" | bin/testtimes -timeout "$timeout" || rc=$?
echo "==> go test with $hogs CPU hog(s) took $((SECONDS - start)) s (exit status $rc)"
exit "$rc"
