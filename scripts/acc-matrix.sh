#!/usr/bin/env bash
# The CLI matrix: the acceptance packages on the CLIs besides the one make
# test runs (the image's Terraform, 1.11.4), as registry providers test a
# matrix of CLI versions:
#
#   terraform-1.15.9   ../shared/tools/terraform/install.sh
#   opentofu-1.12.6    ../shared/tools/opentofu/install.sh
#
# Each install.sh unpacks its CLI into a cache directory (checking its
# SHA-256), then the acceptance packages run on it with TF_ACC=1 and
# TF_ACC_TERRAFORM_PATH naming it. The acceptance packages are the ones
# whose tests drive the CLI against the provider: internal/provider, the
# conformance suite (internal/conformance) and the fake platforms' *acc
# packages (which of them run on each CLI: below). The fault matrix, the
# crash test and the bad-input table are CLI-agnostic robustness suites and
# run on 1.11.4 only (make test); internal/platform/docker drives no CLI.
#
# Each pass also runs internal/conformance's tests of the newer CLI's
# features over the whole registry of platforms under test:
# TestAccConformanceCLI (identity, list resources, actions, env_wo on every
# platform) and TestAccConformanceEnvWOTrace (env_wo with the trace logs on),
# cli_run below, appending to the same log.
#
# A test of a feature a CLI lacks is skipped by the test itself: by version
# (tfversion.SkipBelow) or, for OpenTofu, by name (acctest.SkipOnOpenTofu,
# with the reason). After each pass this prints go test's summary for that
# CLI, the counts of top-level tests passed, skipped and failed, and every
# skip with its reason; it exits non-zero if any pass fails.
#
# Environment:
#   SBX_SHARED_TOOLS    where terraform/ and opentofu/ are (default: ../shared/tools
#                       beside the repository root)
#   SBX_CLI_CACHE       where the CLIs are unpacked (default: ~/.cache/sbx-cli-matrix)
#   ACC_MATRIX_CLIS     which passes, in order (default: "terraform-1.15.9 opentofu-1.12.6")
#   ACC_MATRIX_PKGS     the packages on Terraform (default: see below; "all": every
#                       acceptance package, on both CLIs)
#   ACC_MATRIX_TOFU_PKGS  the packages on OpenTofu (default: see below)
#   ACC_MATRIX_RUN      the go test -run pattern of those packages (default: internal/provider's
#                       tests of the newer CLI's features, see below; empty, or "all" above: every test)
#   ACC_MATRIX_CLI_RUN  the go test -run pattern of internal/conformance's run over the
#                       registry on every CLI (default: see below; empty: none)
#   ACC_MATRIX_CONFORMANCE  the -run pattern of internal/conformance on every CLI, where
#                       the pass does not run that package whole (default: none;
#                       '^TestAccConformance$/^docker$': Docker's whole suite)
#   ACC_MATRIX_PARALLEL 0 runs the passes one after the other (default 1: at the same time,
#                       see the note at the end of this file)
#   ACC_MATRIX_LOGS     directory for each pass's full log (default: a temporary one)
#   TEST_TIMEOUT        go test -timeout (default 60m, as make test)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

tools=${SBX_SHARED_TOOLS:-$root/../shared/tools}
cache=${SBX_CLI_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/sbx-cli-matrix}
clis=${ACC_MATRIX_CLIS:-terraform-1.15.9 opentofu-1.12.6}
# What differs between CLIs is the CLI's side of the protocol: the features
# a newer CLI brings (identity, import by identity, list resources and
# terraform query, actions, write-only attributes) and how each CLI plans
# and applies them. By default each pass runs the tests of exactly that:
# internal/provider's tests of those features on Docker (provider_run) and
# the conformance suite's scenarios of them on every platform (cli_run,
# below). The rest of the acceptance tests is platform behaviour, the same
# on every CLI, and runs on 1.11.4 (make test). Running internal/provider
# whole on both CLIs beside make test took CI to 64 minutes on two CPUs
# (measured), and starved the Docker engine until it stopped answering
# within 30 seconds: ACC_MATRIX_RUN= (empty) runs the named packages whole,
# ACC_MATRIX_PKGS names more packages, "all" every acceptance package, whole,
# on both CLIs.
all_pkgs="./internal/provider/ ./internal/conformance/ ./internal/platform/e2b/e2bacc ./internal/platform/daytona/daytonaacc ./internal/platform/fly/flyacc ./internal/platform/modal/modalacc"
pkgs=${ACC_MATRIX_PKGS:-./internal/provider/}
tofu_pkgs=${ACC_MATRIX_TOFU_PKGS:-./internal/provider/}
provider_run=${ACC_MATRIX_RUN-'^(TestAccSandboxExecAction_docker|TestAccSandboxSnapshotAction_docker|TestAccListVolume_queryGenerateImport|TestAccExampleBulkImport|TestAccSandbox_envWO)$'}
if [ "$pkgs" = all ]; then pkgs=$all_pkgs tofu_pkgs=$all_pkgs provider_run=""; fi
# The newer CLI's features (identity, import by identity, terraform query,
# the actions or their refusal at plan, write-only env) are conformance
# scenarios (platformtest.CLIScenarios), driven by each platform's attribute
# table: one test runs them on every platform of the registry, so a new
# platform joins the matrix with its kit. Each scenario skips below the
# Terraform version it needs, and on OpenTofu where OpenTofu lacks the
# feature (list resources, actions), saying so. The conformance suite's
# other scenarios are platform behaviour, the same on every CLI: each pass
# runs them on 1.11.4 (make test, every platform); ACC_MATRIX_CONFORMANCE
# runs them on the other CLIs too.
conformance_pkg=./internal/conformance/
cli_run=${ACC_MATRIX_CLI_RUN-'^TestAccConformance(CLI|EnvWOTrace)$'}
conformance_run=${ACC_MATRIX_CONFORMANCE-}
parallel=${ACC_MATRIX_PARALLEL:-1}
timeout=${TEST_TIMEOUT:-60m}
logs=${ACC_MATRIX_LOGS:-$(mktemp -d)}
mkdir -p "$logs"

# A CLI configuration file that is named but absent makes OpenTofu print a
# warning on stdout, before its version, and terraform-plugin-testing then
# cannot parse the version: as .ci/run does, forget it.
if [ -n "${TF_CLI_CONFIG_FILE:-}" ] && [ ! -f "$TF_CLI_CONFIG_FILE" ]; then unset TF_CLI_CONFIG_FILE; fi
export CHECKPOINT_DISABLE=1

if ! command -v xz >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "==> installing xz-utils (the CLIs are shipped xz-compressed)"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq xz-utils >/dev/null ||
      { apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq xz-utils >/dev/null; }
  else
    echo "acc-matrix: xz is missing: install xz-utils" >&2
    exit 1
  fi
fi

# install NAME prints the path of the unpacked CLI.
install() {
  case "$1" in
    terraform-*) "$tools/terraform/install.sh" "$cache/$1" ;;
    opentofu-*) "$tools/opentofu/install.sh" "$cache/$1" ;;
    *) echo "acc-matrix: unknown CLI $1 (terraform-X.Y.Z or opentofu-X.Y.Z)" >&2; return 1 ;;
  esac
}

# pass NAME BIN runs the packages on one CLI, writing $logs/NAME.log and
# $logs/NAME.rc (go test's exit status: the first failing run's, on
# Terraform where two run) and $logs/NAME.wall (seconds).
pass() {
  local name=$1 bin=$2 start rc=0 conformance_rc=0
  local -a env=(TF_ACC=1 "TF_ACC_TERRAFORM_PATH=$bin")
  # OpenTofu resolves a provider source without a host ("hashicorp/sbx", or
  # none at all) to registry.opentofu.org: the in-process provider must be
  # served under that address, not plugin-testing's registry.terraform.io.
  local run_pkgs=$pkgs
  case "$name" in opentofu-*) env+=(TF_ACC_PROVIDER_HOST=registry.opentofu.org); run_pkgs=$tofu_pkgs ;; esac
  # Where the pass does not run internal/conformance whole: its Docker
  # conformance and its one test of the newer CLI's features, over the
  # registry.
  local conformance=""
  case " $run_pkgs " in *" $conformance_pkg "*) ;; *) conformance=$conformance_run ;; esac
  echo "$run_pkgs${provider_run:+ -run '$provider_run'}" >"$logs/$name.pkgs"
  local run
  for run in "$conformance" "$cli_run"; do
    if [ -n "$run" ]; then echo "  and -run '$run' of $conformance_pkg" >>"$logs/$name.pkgs"; fi
  done
  start=$(date +%s)
  # shellcheck disable=SC2086 # run_pkgs is a list
  local -a run_flag=()
  if [ -n "$provider_run" ]; then run_flag=(-run "$provider_run"); fi
  env "${env[@]}" go test -count=1 -v -timeout "$timeout" -p 2 "${run_flag[@]}" $run_pkgs >"$logs/$name.log" 2>&1 || rc=$?
  # Appended to the same log, so the summary counts every run. (Two runs:
  # go test splits a -run pattern at its slashes before its alternatives.)
  for run in "$conformance" "$cli_run"; do
    if [ -n "$run" ]; then
      env "${env[@]}" go test -count=1 -v -timeout "$timeout" -run "$run" "$conformance_pkg" >>"$logs/$name.log" 2>&1 || conformance_rc=$?
    fi
  done
  if [ "$rc" = 0 ]; then rc=$conformance_rc; fi
  # A -run pattern that names no test (one renamed) runs nothing and passes:
  # it fails the pass instead.
  if grep -q '^testing: warning: no tests to run' "$logs/$name.log"; then
    echo "a -run pattern of this pass matched no test: $provider_run / $cli_run / $conformance_run" >>"$logs/$name.log"
    rc=1
  fi
  echo "$rc" >"$logs/$name.rc"
  echo $(($(date +%s) - start)) >"$logs/$name.wall"
}

# summary NAME prints go test's summary of one pass, its counts and its skips.
summary() {
  local name=$1 log=$logs/$1.log
  echo
  echo "==> go test summary: $name ($(cat "$logs/$name.version")), $(cat "$logs/$name.wall")s wall, log $log"
  echo "packages: $(cat "$logs/$name.pkgs")"
  grep -E '^(ok|FAIL|--- FAIL|panic:)' "$log" || true
  echo "top-level tests: $(grep -c '^--- PASS' "$log" || true) passed, $(grep -c '^--- SKIP' "$log" || true) skipped, $(grep -c '^--- FAIL' "$log" || true) failed"
  # A skipped test's reason is the last line it logged before its --- SKIP
  # line (go test -v streams each test's output under its === RUN/CONT/NAME).
  awk '
    /^=== (RUN|CONT|NAME|PAUSE) / { cur = $3; next }
    /^    [^ ].*\.go:[0-9]+: / && cur !~ /\// { msg = $0; sub(/^ +/, "", msg); last[cur] = msg; next }
    /^--- SKIP: / { n = $3; printf "  skip %-60s %s\n", n, last[n] }
  ' "$log" | sort
  # A failed test's own output: the last lines each failed test (or
  # subtest: parallel scenarios interleave) logged under its own name, so a
  # failure is readable where only this summary is kept.
  awk -v keep=40 '
    /^=== (RUN|CONT|NAME|PAUSE) / { cur = $3; next }
    /^ *--- FAIL: / {
      t = $3
      if (t in done) next
      done[t] = 1
      if (!n[t]) { printf "  fail %s\n", t; next }
      printf "  fail %s, its last lines:\n", t
      start = n[t] > keep ? n[t] - keep : 0
      for (i = start; i < n[t]; i++) print "    " buf[t, i % keep]
    }
    /^    / && cur != "" { buf[cur, n[cur]++ % keep] = $0; next }
  ' "$log"
}

names=()
for cli in $clis; do
  bin=$(install "$cli")
  names+=("$cli")
  # The whole output first: grep -m1 closing the pipe early would fail the CLI (pipefail).
  version=$("$bin" version 2>/dev/null || true)
  grep -Em1 '^(Terraform|OpenTofu) v' <<<"$version" >"$logs/$cli.version" || echo "?" >"$logs/$cli.version"
  echo "==> $cli: $bin ($(cat "$logs/$cli.version"))"
done

echo "==> go test on ${names[*]} ($([ "$parallel" = 1 ] && echo "at the same time" || echo "one after the other")): $pkgs (OpenTofu: $tofu_pkgs)${provider_run:+ -run '$provider_run'}"
[ -z "$cli_run" ] || echo "    and on every CLI: -run '$cli_run' of $conformance_pkg (every platform of the registry)"
echo "    load: $(uptime | sed 's/.*load average/load average/'), $(nproc) CPUs"
pids=()
for cli in "${names[@]}"; do
  bin=$(install "$cli")
  if [ "$parallel" = 1 ]; then
    pass "$cli" "$bin" &
    pids+=($!)
  else
    pass "$cli" "$bin"
  fi
done
for pid in "${pids[@]}"; do wait "$pid" || true; done

status=0
for cli in "${names[@]}"; do
  summary "$cli"
  rc=$(cat "$logs/$cli.rc" 2>/dev/null || echo 1)
  if [ "$rc" != 0 ]; then
    echo "$cli: go test failed (exit status $rc)" >&2
    status=1
  fi
done
echo
echo "acc-matrix exit status: $status"
exit "$status"

# Why the passes run at the same time: the acceptance tests of a package
# already run in parallel with each other and beside other packages' (make
# test's -p 2), so each names its Docker objects at random (tf-acc-<random>)
# and looks at the engine only through its own names, labels or image ids;
# two passes sharing the engine collide no more than two tests do. Measured
# on the 2-CPU CI machine, both passes together took 9.8 min (588 s, each
# pass 580 s) with the machine lightly loaded by other work (load average
# 0.3-8), and 19 min under load average 15-25: most of a pass is waiting on
# the CLI and the engine, not CPU, so together beats one after the other.
