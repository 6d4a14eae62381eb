#!/usr/bin/env bash
# Removes what live acceptance runs (make test-live) left on the platforms
# SBX_ACC_LIVE names: every object the provider made whose owner starts
# with sbx-live- and that is older than SWEEP_OLDER_THAN (default 1h, so a
# run going on now keeps its objects), with the orphans command against an
# empty state. The credentials come from the environment, as for the tests.
# Exits 0 when every platform was swept (objects removed or none found).
set -euo pipefail
cd "$(dirname "$0")/.."

platforms=$(echo "${SBX_ACC_LIVE:-}" | tr ',' ' ')
if [ -z "${platforms// /}" ]; then
  echo "make sweep: set SBX_ACC_LIVE to the platforms to sweep (e.g. SBX_ACC_LIVE=e2b,fly) and their credentials" >&2
  exit 1
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# No state holds a live run's objects once it ended.
echo '{"version":4,"resources":[]}' >"$work/empty.tfstate"
go build -o "$work/terraform-provider-sbx" .

status=0
for p in $platforms; do
  echo "==> sweeping $p"
  rc=0
  "$work/terraform-provider-sbx" orphans --platform "$p" --owner-prefix sbx-live- \
    --older-than "${SWEEP_OLDER_THAN:-1h}" --all-states --delete "$work/empty.tfstate" || rc=$?
  # 0: nothing to remove; 2: orphans found, all removed.
  if [ "$rc" != 0 ] && [ "$rc" != 2 ]; then status=1; fi
done
exit "$status"
