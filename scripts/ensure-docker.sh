#!/usr/bin/env bash
# Makes sure a Docker engine answers. Where none runs and this is a Debian-like
# machine where we are root, installs Debian's docker.io and starts dockerd,
# saying so; anywhere else, stops with a message on how to get Docker.
set -euo pipefail

engine_up() {
  if [ -n "${DOCKER_HOST:-}" ]; then
    docker version >/dev/null 2>&1
  else
    [ -S /var/run/docker.sock ] && docker version >/dev/null 2>&1
  fi
}

if command -v docker >/dev/null 2>&1 && engine_up; then
  exit 0
fi

if [ -n "${DOCKER_HOST:-}" ]; then
  echo "The Docker engine at DOCKER_HOST=$DOCKER_HOST does not answer. Start it, or unset DOCKER_HOST to use a local engine." >&2
  exit 1
fi

if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  cat >&2 <<'MSG'
No Docker engine is running here, and this machine is not one where it can be
installed automatically (that needs root and apt-get).
Install Docker and start it, then run this again:
  - Debian/Ubuntu:  sudo apt-get install docker.io && sudo systemctl start docker
  - macOS/Windows:  install Docker Desktop (or Colima/OrbStack) and start it
  - a remote engine: export DOCKER_HOST=tcp://host:2376 (or ssh://user@host)
MSG
  exit 1
fi

if ! command -v dockerd >/dev/null 2>&1; then
  echo "==> Docker is not installed: installing Debian's docker.io (apt-get install docker.io)"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null 2>&1 || echo "    (apt-get update failed; trying the install with the package lists already here)"
  apt-get install -y -qq docker.io >/dev/null
fi

echo "==> Starting dockerd (log: /tmp/sbx-dockerd.log)"
nohup dockerd >/tmp/sbx-dockerd.log 2>&1 &
for _ in $(seq 1 60); do
  if engine_up; then
    echo "==> dockerd is up"
    exit 0
  fi
  sleep 1
done
echo "dockerd did not come up within 60 s; its log:" >&2
tail -n 30 /tmp/sbx-dockerd.log >&2
exit 1
