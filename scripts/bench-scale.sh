#!/usr/bin/env bash
# make bench-scale: BOXES sbx_sandbox (default 1000) from one sbx_template on
# the strict E2B fake, which answers every request LATENCY_MS late (default
# 50), with terraform -parallelism=PARALLELISM (default 10). For apply, a
# no-op plan and destroy it prints the wall time, the requests per box, the
# API floor (requests x latency / parallelism: what the calls cost even with
# no provider work), the same phase for Terraform core alone (BOXES
# terraform_data) and the CPU seconds of terraform and of the provider;
# then the state file's bytes per box after apply, which Terraform writes
# whole after every resource an apply or destroy completes.
#
# ROUNDS=N (default 1) runs every phase N times, sbx and the floors taking
# turns to go first, prints each round's sbx/floor wall ratios, and reports
# each figure's median: a shared 2-CPU machine moves one run by 20-30%.
#
# The provider runs as a dev override through a wrapper that runs it under
# GNU time, so its CPU is counted however many times Terraform starts it.
# The same configuration then runs against floorprovider (internal/bench/
# floorprovider): sbx's schemas with no provider logic and no API, which is
# what Terraform and the plugin framework cost for objects of this shape.
# And once more against floorprovider waiting, in each operation, as long as
# sbx's API calls there take on this fake (LATENCY_MS per call: two per
# create, one per read and per delete), with no CPU spent on them: what
# Terraform's scheduling makes of the latency alone. A read holds one of
# the -parallelism slots for its whole wait, so no provider that calls the
# API once per box can refresh faster than this second floor. The template's
# build (its polls, about half a second here) is not modelled: it is 2% of
# a 1,000-box apply.
# SBX_CPUPROFILE=/path is passed through: each provider process writes
# /path.PID, each floorprovider process /path-floor.PID (/path-wait.PID when
# it waits); merged with
# go tool pprof -proto, `go tool pprof -top -diff_base floor.pb.gz sbx.pb.gz`
# shows what the provider spends above the floor.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
BOXES=${BOXES:-1000}
LATENCY_MS=${LATENCY_MS:-50}
PARALLELISM=${PARALLELISM:-10}
ROUNDS=${ROUNDS:-1}
command -v terraform >/dev/null || { echo "bench-scale needs terraform on PATH" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "bench-scale needs GNU time (/usr/bin/time)" >&2; exit 1; }

work=$(mktemp -d /tmp/sbx-bench-scale-XXXXXX)
fake_pid=
cleanup() {
  [ -z "$fake_pid" ] || kill "$fake_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

mkdir -p "$work/bin" "$work/sbx-override" "$work/floor-override" "$work/wait-override" "$work/sbx" "$work/floor" "$work/wait" "$work/core"
go build -trimpath -o "$work/bin/terraform-provider-sbx" .
go build -trimpath -o "$work/bin/floorprovider" ./internal/bench/floorprovider
go build -o "$work/bin/benchfake" ./internal/bench/benchfake
# The wrappers Terraform starts: one line "user sys" per provider process.
cat >"$work/sbx-override/terraform-provider-sbx" <<WRAP
#!/bin/sh
exec /usr/bin/time -a -o "$work/provider-cpu" -f "%U %S" "$work/bin/terraform-provider-sbx" "\$@"
WRAP
# floor_wrapper NAME [VAR=VALUE]: floorprovider's wrapper for the NAME run,
# its profiles named -NAME. The floor runs with the settings the provider
# gives itself when no log is asked for (logenv.go, gcpercent.go), so the
# two differ only in logic.
floor_wrapper() {
  cat >"$work/$1-override/terraform-provider-sbx" <<WRAP
#!/bin/sh
export ${2:+$2 }GOGC=400 TF_LOG_SDK=off TF_LOG_SDK_PROTO=off TF_LOG_SDK_FRAMEWORK=off TF_LOG_PROVIDER_SBX=off
[ -z "\${SBX_CPUPROFILE:-}" ] || export SBX_CPUPROFILE="\$SBX_CPUPROFILE-$1"
exec /usr/bin/time -a -o "$work/provider-cpu" -f "%U %S" "$work/bin/floorprovider" "\$@"
WRAP
}
floor_wrapper floor
# The calls sbx's E2B sandboxes make per operation: create POSTs and reads
# the box back, a refresh reads it, a destroy deletes it.
waits="create=$((2 * LATENCY_MS))ms,read=${LATENCY_MS}ms,delete=${LATENCY_MS}ms"
floor_wrapper wait "SBX_FLOOR_WAITS=$waits"
for dir in sbx floor wait; do
  override=$work/$dir-override
  chmod +x "$override/terraform-provider-sbx"
  cat >"$work/$dir.terraformrc" <<RC
provider_installation {
  dev_overrides {
    "sbxhq/sbx" = "$override"
  }
  direct {}
}
RC
done
cp "$work/sbx.terraformrc" "$work/core.terraformrc"
# Nobody asked for logs: the bench measures what a user's run costs.
for v in $(env | sed -n 's/^\(TF_LOG[A-Z_]*\)=.*/\1/p'); do unset "$v"; done
export CHECKPOINT_DISABLE=1 TF_IN_AUTOMATION=1

"$work/bin/benchfake" -latency "${LATENCY_MS}ms" -api-key bench-key >"$work/fake.url" 2>"$work/fake.log" &
fake_pid=$!
for _ in $(seq 100); do [ -s "$work/fake.url" ] && break; sleep 0.05; done
url=$(head -n1 "$work/fake.url")
[ -n "$url" ] || { echo "the fake did not start:"; cat "$work/fake.log"; exit 1; }

cat >"$work/sbx/main.tf" <<HCL
terraform {
  required_providers {
    sbx = { source = "sbxhq/sbx" }
  }
}

provider "sbx" {
  e2b {
    api_key = "bench-key"
    api_url = "$url"
    tier    = "pro"
  }
}

resource "sbx_template" "t" {
  name       = "bench"
  dockerfile = "FROM alpine:3.20\nRUN echo ok\n"
}

resource "sbx_sandbox" "s" {
  count       = $BOXES
  name        = "box-\${count.index}"
  template_id = sbx_template.t.id
  timeout     = "1h"
}
HCL
cp "$work/sbx/main.tf" "$work/floor/main.tf"
cp "$work/sbx/main.tf" "$work/wait/main.tf"
cat >"$work/core/main.tf" <<HCL
resource "terraform_data" "s" {
  count = $BOXES
  input = "box-\${count.index}"
}
HCL

# fake_cpu: the fake's CPU seconds so far. It shares the machine with
# Terraform and the provider, so a busy fake slows them too.
fake_cpu() {
  awk -v hz="$(getconf CLK_TCK)" '{ printf "%.2f", ($14 + $15) / hz }' "/proc/$fake_pid/stat"
}

# phase DIR NAME ARGS...: runs terraform NAME in DIR, leaving in $work the
# wall and CPU seconds (GNU time counts terraform and every child it waited
# for, so the provider too) and the provider's own CPU.
phase() {
  local dir=$1 name=$2; shift 2
  : >"$work/provider-cpu"
  local fake0; fake0=$(fake_cpu)
  curl -fsS -X DELETE "$url/_bench/counts" >/dev/null
  local rc=0
  TF_CLI_CONFIG_FILE="$work/$dir.terraformrc" /usr/bin/time -o "$work/time" -f "%e %U %S" terraform -chdir="$work/$dir" "$name" -input=false -parallelism="$PARALLELISM" "$@" >"$work/$dir-$name.log" 2>&1 || rc=$?
  # A no-op plan exits 0 under -detailed-exitcode; 2 would mean changes.
  if [ "$rc" != 0 ]; then echo "$dir: terraform $name exited $rc:"; tail -n 40 "$work/$dir-$name.log"; exit 1; fi
  read -r wall user sys <"$work/time"
  pcpu=$(awk '{ u += $1; s += $2 } END { printf "%.2f", u + s }' "$work/provider-cpu")
  reqs=$(curl -fsS "$url/_bench/counts" | sed -n 's/.*"requests":\([0-9]*\).*/\1/p')
  local fcpu; fcpu=$(awk -v a="$fake0" -v b="$(fake_cpu)" 'BEGIN { printf "%.2f", b - a }')
  echo "$wall $(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }') $pcpu $reqs $fcpu" >>"$work/$dir-$name.results"
  # What each box weighs in the state Terraform writes after every resource
  # an apply or destroy completes (so an apply writes it once per box).
  if [ "$name" = apply ]; then wc -c <"$work/$dir/terraform.tfstate" >"$work/$dir.state-bytes"; fi
  if [ -n "${BENCH_ROUTES:-}" ]; then curl -fsS "$url/_bench/counts" >"$work/$dir-$name.routes"; fi
}

# run DIR: one apply, no-op plan and destroy.
run() {
  phase "$1" apply -auto-approve
  phase "$1" plan -detailed-exitcode
  phase "$1" destroy -auto-approve
}

# median_results DIR NAME: each column's median over the rounds, in the
# one-line form the report reads.
median_results() {
  local f=$work/$1-$2.results cols i line=
  cols=$(head -n1 "$f" | wc -w)
  for ((i = 1; i <= cols; i++)); do
    line+="${line:+ }$(cut -d' ' -f"$i" "$f" | sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }')"
  done
  echo "$line" >"$work/$1-$2.result"
}

echo "sbx bench-scale: $BOXES boxes on the E2B fake, ${LATENCY_MS} ms per answer, -parallelism=$PARALLELISM, $ROUNDS round(s)"
for ((round = 1; round <= ROUNDS; round++)); do
  # Every other round runs the floors first, so a machine that gets busier
  # or quieter during the run does not favour one side.
  if ((round % 2)); then run sbx; run floor; run wait; else run wait; run floor; run sbx; fi
  run core
  if [ "$ROUNDS" -gt 1 ]; then
    for against in floor wait; do
      printf 'round %d: sbx / %s wall' "$round" "$against"
      for p in apply plan destroy; do
        sw=$(tail -n1 "$work/sbx-$p.results" | cut -d' ' -f1)
        fw=$(tail -n1 "$work/$against-$p.results" | cut -d' ' -f1)
        printf ' %s %s' "$p" "$(awk -v s="$sw" -v f="$fw" 'BEGIN { printf "%.2fx", s / f }')"
      done
      echo
    done
  fi
done
for dir in sbx floor wait core; do
  for p in apply plan destroy; do median_results "$dir" "$p"; done
done
[ "$ROUNDS" = 1 ] || echo "medians of $ROUNDS rounds:"
if [ -n "${BENCH_ROUTES:-}" ]; then cp "$work"/*.routes "$BENCH_ROUTES"/ 2>/dev/null || true; fi

printf '%-8s %8s %9s %8s %9s %8s %9s %9s %9s\n' phase wall_s requests req/box floor_s core_s "vs_max" cpu_s cpu_ms/box
for p in apply plan destroy; do
  read -r wall cpu pcpu reqs _ <"$work/sbx-$p.result"
  read -r cwall ccpu _ _ _ <"$work/core-$p.result"
  awk -v p="$p" -v w="$wall" -v c="$cpu" -v r="$reqs" -v cw="$cwall" -v n="$BOXES" -v l="$LATENCY_MS" -v par="$PARALLELISM" 'BEGIN {
    floor = r * l / 1000 / par; m = floor > cw ? floor : cw
    printf "%-8s %8.1f %9d %8.2f %9.1f %8.1f %8.2fx %9.2f %9.2f\n", p, w, r, r / n, floor, cw, w / m, c, c * 1000 / n }'
done
echo "cpu_s is terraform and provider together; the provider's own CPU per phase:"
for p in apply plan destroy; do
  read -r _ cpu pcpu _ fcpu <"$work/sbx-$p.result"
  read -r _ ccpu _ _ _ <"$work/core-$p.result"
  printf '  %-8s provider %6.2f s (%5.2f ms/box), terraform core alone %6.2f s, the fake %6.2f s\n' "$p" "$pcpu" "$(awk -v c="$pcpu" -v n="$BOXES" 'BEGIN { print c * 1000 / n }')" "$ccpu" "$fcpu"
done
echo "the same configuration on floorprovider (sbx's schemas, no provider logic, no API):"
echo "  (vs_floor: sbx's wall against max(API floor, this wall); above: sbx's CPU beyond this one's)"
for p in apply plan destroy; do
  read -r wall cpu pcpu reqs _ <"$work/sbx-$p.result"
  read -r fwall fcpu fpcpu _ _ <"$work/floor-$p.result"
  awk -v p="$p" -v sw="$wall" -v w="$fwall" -v c="$cpu" -v fc="$fcpu" -v fp="$fpcpu" -v pc="$pcpu" -v n="$BOXES" \
    -v r="$reqs" -v l="$LATENCY_MS" -v par="$PARALLELISM" 'BEGIN {
    api = r * l / 1000 / par; m = api > w ? api : w
    printf "  %-8s wall %6.1f s (vs_floor %5.2fx), cpu %6.2f s (%5.2f ms/box; provider %5.2f); above: %5.2f ms/box (provider %5.2f)\n",
      p, w, sw / m, fc, fc * 1000 / n, fp * 1000 / n, (c - fc) * 1000 / n, (pc - fp) * 1000 / n }'
done
echo "floorprovider waiting as sbx's API calls take ($waits), no CPU spent on them:"
for p in apply plan destroy; do
  read -r wall _ _ _ _ <"$work/sbx-$p.result"
  read -r wwall wcpu _ _ _ <"$work/wait-$p.result"
  awk -v p="$p" -v sw="$wall" -v w="$wwall" -v c="$wcpu" -v n="$BOXES" 'BEGIN {
    printf "  %-8s wall %6.1f s (sbx / this %5.2fx), cpu %6.2f s (%5.2f ms/box)\n", p, w, sw / w, c, c * 1000 / n }'
done
awk -v n="$BOXES" -v s="$(cat "$work/sbx.state-bytes")" -v f="$(cat "$work/floor.state-bytes")" -v c="$(cat "$work/core.state-bytes")" 'BEGIN {
  printf "state after apply: sbx %d bytes (%d per box), floorprovider %d (%d), terraform core alone %d (%d)\n", s, s / n, f, f / n, c, c / n }'
kill "$fake_pid"
wait "$fake_pid" || { echo "the fake reported spec violations:"; tail -n 20 "$work/fake.log"; exit 1; }
fake_pid=
