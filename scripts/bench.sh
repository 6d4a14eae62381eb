#!/usr/bin/env bash
# make bench: applies BOXES sandboxes (default 30), each with its own volume,
# runs a no-op plan, and destroys them, printing the wall time of each phase.
# Terraform walks the graph with -parallelism=BOXES so creates run in parallel.
set -euo pipefail
cd "$(dirname "$0")/.."
BOXES=${BOXES:-30}

if [ -n "${TF_CLI_CONFIG_FILE:-}" ] && [ ! -f "$TF_CLI_CONFIG_FILE" ]; then unset TF_CLI_CONFIG_FILE; fi
export CHECKPOINT_DISABLE=1

make --no-print-directory install >/dev/null
work=$(mktemp -d /tmp/sbx-bench-XXXXXX)
trap 'rm -rf "$work"' EXIT
cp scripts/bench/main.tf "$work/"
mkdir -p "$work/agent"
CGO_ENABLED=0 GOOS=linux go build -trimpath -o "$work/agent/agent" ./examples/quickstart/agent
run_id=$(date +%s)
vars=(-var "boxes=$BOXES" -var "context_dir=$work/agent" -var "run_id=$run_id")

cd "$work"
terraform init -upgrade -input=false >/dev/null

phase() { # name, command...
  local name=$1; shift
  local start end
  start=$(date +%s.%N)
  "$@" >"$work/$name.log" 2>&1 || { echo "$name failed:"; tail -n 40 "$work/$name.log"; exit 1; }
  end=$(date +%s.%N)
  awk -v n="$name" -v s="$start" -v e="$end" 'BEGIN { printf "%-28s %8.2f s\n", n, e - s }'
}

echo "sbx bench: $BOXES sandboxes, each with its own volume, on $(docker version --format '{{.Server.Version}}' 2>/dev/null || echo docker)"
phase "apply ($BOXES boxes)" terraform apply -auto-approve -input=false -parallelism="$BOXES" "${vars[@]}"
phase "no-op plan" terraform plan -detailed-exitcode -input=false -parallelism="$BOXES" "${vars[@]}"
phase "destroy" terraform destroy -auto-approve -input=false -parallelism="$BOXES" "${vars[@]}"
left=$(docker ps -aq --filter "name=bench-$run_id" | wc -l)
[ "$left" = 0 ] || { echo "destroy left $left containers behind"; exit 1; }

# The drift detector on a generated 100,000-resource state: the Go benchmark,
# then the built binary once, with its wall time and peak memory.
root=$OLDPWD # the repository: the last cd above went from it into $work
echo "drift detector, 100,000-resource state:"
(cd "$root" && go test -run '^$' -bench BenchmarkDrift100k -benchmem ./internal/drift | grep '^Benchmark')
(cd "$root" && go run ./internal/drift/cmd/genstate -n 100000 -o "$work/state100k.tfstate")
rc=0
if [ -x /usr/bin/time ]; then
  /usr/bin/time -v "$root/bin/terraform-provider-sbx" drift --now 2026-05-01T12:00:00Z "$work/state100k.tfstate" >/dev/null 2>"$work/drift-time.log" || rc=$?
  grep -E 'Elapsed \(wall clock\)|Maximum resident set size' "$work/drift-time.log" | sed 's/^[[:space:]]*/  /'
else
  start=$(date +%s.%N)
  "$root/bin/terraform-provider-sbx" drift --now 2026-05-01T12:00:00Z "$work/state100k.tfstate" >/dev/null || rc=$?
  awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "  drift run %.2f s (install GNU time for peak memory)\n", e - s }'
fi
# Exit 2 is the expected answer: the generated state has expired boxes.
[ "$rc" = 2 ] || { echo "drift exited $rc, want 2"; cat "$work/drift-time.log" 2>/dev/null; exit 1; }
