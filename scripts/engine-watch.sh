#!/usr/bin/env bash
# Watches Docker engines for calls stuck on a lock, so that a CI run in which
# the engine stalled says why. An engine stall shows in the tests only as a
# call that did not answer in time; the engine's own goroutines tell which
# lock held it up and what held the lock.
#
#   scripts/engine-watch.sh watch DIR NAME:PID:EXECROOT...
#       every 30 s, asks each dockerd for a goroutine dump (SIGUSR1, which
#       the engine writes to a file in its exec root), keeps in DIR each dump
#       in which a goroutine has waited on a lock for a minute or more, and
#       deletes the rest. Runs until killed.
#   scripts/engine-watch.sh report DIR
#       prints, for each dump kept, the goroutines waiting on a lock for a
#       minute or more and the API calls and container events that have
#       run as long (what usually holds the lock), one of each stack, with
#       how many goroutines share it. Prints nothing when none was kept.
set -euo pipefail

# long_goroutines prints a dump's goroutines of interest, each as its header
# and its function names (file lines dropped), separated by blank lines.
long_goroutines() {
  awk '
    function flush() {
      if (head != "" && keep) print head "\n" body
      head = ""; body = ""; keep = 0
    }
    /^goroutine [0-9]+ \[/ {
      flush()
      head = $0
      minutes = 0
      if (match($0, /, [0-9]+ minutes\]/)) minutes = substr($0, RSTART + 2, RLENGTH - 11) + 0
      lockwait = ($0 ~ /\[(semacquire|sync\.Mutex\.Lock|sync\.RWMutex\.R?Lock)/)
      next
    }
    /^$/ { flush(); next }
    /^\t/ { next }
    {
      body = body "  " $0 "\n"
      if (minutes >= 1 && (lockwait || $0 ~ /api\/server\/router|ProcessEvent|handleContainerExit/)) keep = 1
    }
    END { flush() }
  ' "$1"
}

# has_lock_wait says whether a dump holds a goroutine waiting on a lock for
# a minute or more.
has_lock_wait() {
  grep -Eq '^goroutine [0-9]+ \[(semacquire|sync\.Mutex\.Lock|sync\.RWMutex\.R?Lock)[^]]*, [0-9]+ minutes\]' "$1"
}

watch() {
  local dir=$1
  shift
  mkdir -p "$dir"
  while sleep 30; do
    for engine in "$@"; do
      IFS=: read -r name pid execroot <<<"$engine"
      kill -0 "$pid" 2>/dev/null || continue
      kill -USR1 "$pid" 2>/dev/null || continue
      sleep 1
      for dump in "$execroot"/goroutine-stacks-*.log; do
        [ -f "$dump" ] || continue
        # Keep at most 20 dumps: the first ones of a stall say the most.
        if has_lock_wait "$dump" && [ "$(find "$dir" -name '*.log' | wc -l)" -lt 20 ]; then
          mv "$dump" "$dir/$name-$(basename "$dump")"
        else
          rm -f "$dump"
        fi
      done
    done
  done
}

report() {
  local dir=$1 printed=0
  [ -d "$dir" ] || return 0
  for dump in "$dir"/*.log; do
    [ -f "$dump" ] || continue
    echo "--- $(basename "$dump"): goroutines waiting on a lock, and API calls and container events, for a minute or more"
    # One of each stack (header lines differ only in goroutine number and
    # minutes), with how many share it.
    long_goroutines "$dump" | awk '
      function record() {
        if (head == "") return
        seen[stack]++
        if (!(stack in first)) first[stack] = head
      }
      /^goroutine / { record(); head = $0; stack = ""; next }
      { stack = stack $0 "\n" }
      END {
        record()
        # At most 300 lines per dump, cut here rather than by head: with
        # pipefail, a head that stops reading fails the pipe (SIGPIPE).
        for (s in seen) {
          text = first[s] "   (" seen[s] " goroutines with this stack)\n" s
          n = split(text, lines, "\n") - 1
          for (i = 1; i <= n && printed < 300; i++) { print lines[i]; printed++ }
        }
      }'
    printed=$((printed + 1))
    if [ "$printed" -ge 3 ]; then
      echo "--- (more dumps in $dir)"
      break
    fi
  done
}

case "${1:-}" in
watch)
  shift
  watch "$@"
  ;;
report)
  report "$2"
  ;;
*)
  echo "usage: $0 watch DIR NAME:PID:EXECROOT... | report DIR" >&2
  exit 2
  ;;
esac
