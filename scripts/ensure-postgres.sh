#!/usr/bin/env bash
# Makes sure PostgreSQL's server binaries are here for the tests of the
# drift and orphans commands' --backend pg (acctest.RequirePostgres starts a
# cluster of its own per test from them; nothing runs as a service). Where
# they are missing and this is a Debian-like machine where we are root,
# installs Debian's postgresql, saying so; anywhere else, stops with a
# message on how to get it.
set -euo pipefail

have_pg() {
  for d in /usr/lib/postgresql/*/bin; do
    [ -x "$d/pg_ctl" ] && [ -x "$d/initdb" ] && return 0
  done
  command -v pg_ctl >/dev/null 2>&1 && command -v initdb >/dev/null 2>&1
}

if have_pg; then
  exit 0
fi

if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  cat >&2 <<'MSG'
PostgreSQL's server binaries (initdb, pg_ctl) are not installed, and this
machine is not one where they can be installed automatically (that needs
root and apt-get). Install them, then run this again:
  - Debian/Ubuntu:  sudo apt-get install postgresql
  - macOS:          brew install postgresql
MSG
  exit 1
fi

echo "==> PostgreSQL is not installed: installing Debian's postgresql (apt-get install postgresql)"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null 2>&1 || echo "    (apt-get update failed; trying the install with the package lists already here)"
apt-get install -y -qq postgresql >/dev/null
have_pg || { echo "apt-get install postgresql left no initdb and pg_ctl under /usr/lib/postgresql/*/bin" >&2; exit 1; }
echo "==> PostgreSQL $(ls /usr/lib/postgresql | sort -n | tail -n1) is installed"
