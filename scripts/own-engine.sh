#!/usr/bin/env bash
# Starts a Docker engine of its own for one test suite (unless it runs
# already) and prints its DOCKER_HOST. Two suites on one engine wait on each
# other's locks: an image removal, for one, takes the lock of every
# container on the engine in turn, so a container busy in one suite holds up
# the other's deletes. A suite on an engine of its own shares only the CPUs.
#
#   scripts/own-engine.sh NAME
#
# The engine keeps everything apart from the default one: its socket
# (/var/run/sbx-NAME-docker.sock), data, exec root (with its own
# containerd), pid file, and bridge, on a private subnet. It leaves
# iptables to the default engine. Needs root and dockerd (scripts/ensure-
# docker.sh installs it); where it cannot start one, it says why on stderr
# and exits 1, and the suite can use the default engine instead.
set -euo pipefail

name=${1:?usage: $0 NAME}
sock=/var/run/sbx-$name-docker.sock
host=unix://$sock
bridge=sbx${name:0:8}0
log=/tmp/sbx-$name-dockerd.log

up() { [ -S "$sock" ] && DOCKER_HOST=$host docker version >/dev/null 2>&1; }

if up; then
  echo "$host"
  exit 0
fi
if [ "$(id -u)" != 0 ] || ! command -v dockerd >/dev/null 2>&1 || ! command -v ip >/dev/null 2>&1; then
  echo "own-engine: starting an engine of its own needs root, dockerd and ip" >&2
  exit 1
fi
if ! ip link show "$bridge" >/dev/null 2>&1; then
  # 10.213.0.0/16 lies outside the pools Docker draws its own networks from
  # (172.17–31, 192.168).
  ip link add "$bridge" type bridge
  ip addr add 10.213.0.1/16 dev "$bridge"
  ip link set "$bridge" up
fi
mkdir -p "/var/lib/sbx-$name-docker"
nohup dockerd --host "$host" --data-root "/var/lib/sbx-$name-docker" --exec-root "/var/run/sbx-$name-docker" \
  --pidfile "/var/run/sbx-$name-docker.pid" --bridge "$bridge" --iptables=false >"$log" 2>&1 </dev/null &
for _ in $(seq 1 60); do
  if up; then
    echo "$host"
    exit 0
  fi
  sleep 1
done
echo "own-engine: the engine $name did not come up within 60 s; its log:" >&2
tail -n 20 "$log" >&2
exit 1
