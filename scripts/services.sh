#!/usr/bin/env bash
# Makes sure the services the tests use are installed and running on this machine:
# PostgreSQL (with a `petstore` role and `petstore_test` database), Redis, and Chromium;
# strace, with which the disk-fault tests make a database's writes fail (EROFS); HAProxy,
# which the rolling-restart test starts itself on loopback with a generated configuration (it
# is installed, never started as a service here); and valgrind, whose callgrind counts the
# instructions per request of scripts/bench/instructions.mjs.
#
#   bash scripts/services.sh ensure   install what is missing (Debian/apt, as root), then start
#   bash scripts/services.sh status   say what runs
#
# The tests connect to:
#   TEST_DATABASE_URL  postgres://petstore:petstore@127.0.0.1:5432/petstore_test
#   TEST_REDIS_URL     redis://127.0.0.1:6379
#   CHROMIUM_PATH      /usr/bin/chromium
set -euo pipefail

PG_USER=petstore
PG_PASSWORD=petstore
PG_DB=petstore_test
REDIS_PORT=6379

log() { printf 'services: %s\n' "$*" >&2; }

missing_packages() {
  local wanted=(postgresql redis-server chromium strace haproxy valgrind) missing=()
  for pkg in "${wanted[@]}"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || missing+=("$pkg")
  done
  echo "${missing[@]:-}"
}

install_missing() {
  local missing
  missing=$(missing_packages)
  [ -z "$missing" ] && return 0
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
    log "missing packages: $missing (install them with apt-get as root)"; exit 1
  fi
  log "installing $missing (apt-get)"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  # shellcheck disable=SC2086
  apt-get install -y -qq --no-install-recommends $missing >/dev/null
}

pg_version() { ls /etc/postgresql | sort -V | tail -n 1; }

start_postgres() {
  local version
  version=$(pg_version)
  if ! pg_lsclusters -h 2>/dev/null | awk '{print $4}' | grep -q online; then
    log "starting PostgreSQL $version"
    pg_ctlcluster --skip-systemctl-redirect "$version" main start
  fi
  for _ in $(seq 1 50); do pg_isready -q -h 127.0.0.1 && break; sleep 0.2; done
  runuser -u postgres -- psql -qAt -c "select 1 from pg_roles where rolname='$PG_USER'" | grep -q 1 ||
    runuser -u postgres -- psql -q -c "create role $PG_USER login createdb password '$PG_PASSWORD'"
  runuser -u postgres -- psql -qAt -c "select 1 from pg_database where datname='$PG_DB'" | grep -q 1 ||
    runuser -u postgres -- psql -q -c "create database $PG_DB owner $PG_USER"
}

start_redis() {
  if ! redis-cli -p "$REDIS_PORT" ping >/dev/null 2>&1; then
    log "starting Redis on port $REDIS_PORT"
    redis-server --daemonize yes --port "$REDIS_PORT" --save "" --appendonly no >/dev/null
    for _ in $(seq 1 50); do redis-cli -p "$REDIS_PORT" ping >/dev/null 2>&1 && break; sleep 0.1; done
  fi
}

case "${1:-ensure}" in
  ensure)
    install_missing
    start_postgres
    start_redis
    log "ready: PostgreSQL $(pg_version), Redis :$REDIS_PORT, $(chromium --version 2>/dev/null || echo 'no chromium'), $(haproxy -v 2>/dev/null | head -n 1 || echo 'no haproxy')"
    ;;
  status)
    pg_lsclusters 2>/dev/null || true
    redis-cli -p "$REDIS_PORT" ping 2>/dev/null || echo "redis: down"
    chromium --version 2>/dev/null || echo "chromium: missing"
    haproxy -v 2>/dev/null | head -n 1 || echo "haproxy: missing"
    ;;
  *) echo "usage: $0 ensure|status" >&2; exit 2 ;;
esac
