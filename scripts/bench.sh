#!/usr/bin/env bash
# make bench: applies BOXES sandboxes (default 30), each with its own volume,
# runs a no-op plan, and destroys them, printing the wall time of each phase.
# Terraform walks the graph with -parallelism=BOXES so creates run in parallel.
# Then it does the same work with the docker command line, every box in
# parallel (scripts/bench/cli.sh says what exactly), and prints, for apply
# and for destroy, the provider's wall time, the CLI's, and their ratio.
# ROUNDS=N (default 1) repeats both N times, printing each round, to show
# the spread; BENCH_DRIFT=0 skips the drift detector part.
set -euo pipefail
cd "$(dirname "$0")/.."
BOXES=${BOXES:-30}
ROUNDS=${ROUNDS:-1}

if [ -n "${TF_CLI_CONFIG_FILE:-}" ] && [ ! -f "$TF_CLI_CONFIG_FILE" ]; then unset TF_CLI_CONFIG_FILE; fi
export CHECKPOINT_DISABLE=1

make --no-print-directory install >/dev/null
work=$(mktemp -d /tmp/sbx-bench-XXXXXX)
cli=$PWD/scripts/bench/cli.sh
cli_prefix=
# The CLI baseline leaves nothing behind, even when a step of it fails.
trap '[ -z "$cli_prefix" ] || "$cli" clean "$cli_prefix"; rm -rf "$work"' EXIT
cp scripts/bench/main.tf "$work/"
mkdir -p "$work/agent"
CGO_ENABLED=0 GOOS=linux go build -trimpath -o "$work/agent/agent" ./examples/quickstart/agent
cd "$work"
terraform init -upgrade -input=false >/dev/null

# wall: seconds since start, to 0.01 s.
wall() { awk -v s="$1" -v e="$(date +%s.%N)" 'BEGIN { printf "%.2f", e - s }'; }

phase() { # name, command...; sets last to the wall time
  local name=$1; shift
  local start
  start=$(date +%s.%N)
  "$@" >"$work/phase.log" 2>&1 || { echo "$name failed:"; tail -n 40 "$work/phase.log"; exit 1; }
  last=$(wall "$start")
  printf '  %-26s %8.2f s\n' "$name" "$last"
}

ratio() { awk -v p="$1" -v c="$2" 'BEGIN { printf "%.2f", p / c }'; }

echo "sbx bench: $BOXES sandboxes, each with its own volume, on $(docker version --format '{{.Server.Version}}' 2>/dev/null || echo docker)"
provider() { # one provider round: apply, no-op plan, destroy; sets p_apply, p_destroy
  local run_id=$1 left
  local vars=(-var "boxes=$BOXES" -var "context_dir=$work/agent" -var "run_id=$run_id")
  phase "apply ($BOXES boxes)" terraform apply -auto-approve -input=false -parallelism="$BOXES" "${vars[@]}"
  p_apply=$last
  phase "no-op plan" terraform plan -detailed-exitcode -input=false -parallelism="$BOXES" "${vars[@]}"
  phase "destroy" terraform destroy -auto-approve -input=false -parallelism="$BOXES" "${vars[@]}"
  p_destroy=$last
  left=$(($(docker ps -aq --filter "name=^bench-$run_id-" | wc -l) +
    $(docker volume ls -q --filter "name=^bench-$run_id-" | wc -l) +
    $(docker images -q "sbx/bench-$run_id" | wc -l)))
  [ "$left" = 0 ] || { echo "destroy left $left containers, volumes or images behind"; exit 1; }
}

baseline() { # the same work with the docker CLI; sets c_apply, c_destroy
  local left
  cli_prefix=clibench-$1
  phase "docker CLI apply" "$cli" apply "$cli_prefix" "$BOXES" "$work/agent"
  c_apply=$last
  phase "docker CLI destroy" "$cli" destroy "$cli_prefix" "$BOXES"
  c_destroy=$last
  left=$("$cli" left "$cli_prefix")
  [ "$left" = 0 ] || { echo "the docker CLI baseline left $left objects behind"; exit 1; }
  cli_prefix=
}

summary=() apply_ratios=() destroy_ratios=()
for ((round = 1; round <= ROUNDS; round++)); do
  [ "$ROUNDS" = 1 ] || echo "round $round of $ROUNDS"
  run_id=$(date +%s)
  # Every other round runs the baseline first, so a machine that gets
  # busier or quieter during the run does not favour one side.
  if ((round % 2)); then provider "$run_id"; baseline "$run_id"; else baseline "$run_id"; provider "$run_id"; fi
  apply_ratios+=("$(ratio "$p_apply" "$c_apply")")
  destroy_ratios+=("$(ratio "$p_destroy" "$c_destroy")")
  summary+=("$(printf '%-8s %8s s %8s s %7sx   %8s s %8s s %7sx' "$round" \
    "$p_apply" "$c_apply" "${apply_ratios[-1]}" "$p_destroy" "$c_destroy" "${destroy_ratios[-1]}")")
done
echo "provider vs docker CLI ($BOXES boxes in parallel; ratio = provider / CLI):"
printf '%-8s %10s %10s %8s   %10s %10s %8s\n' round "apply" "CLI apply" ratio "destroy" "CLI destr." ratio
printf '%s\n' "${summary[@]}"
if [ "$ROUNDS" -gt 1 ]; then
  spread() { printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { printf "%.2f-%.2fx (median %.2fx)", v[1], v[NR], (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
  echo "ratio spread: apply $(spread "${apply_ratios[@]}"), destroy $(spread "${destroy_ratios[@]}")"
fi
[ "${BENCH_DRIFT:-1}" != 0 ] || exit 0

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
