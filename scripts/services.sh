#!/usr/bin/env bash
# Starts the servers the distributed back-end tests use, on loopback, unless they already run (no systemd):
#   Redis (BullMQ's queue) on 127.0.0.1:${REELFORGE_TEST_REDIS_PORT:-6399}, no persistence;
#   PostgreSQL (the second store) on 127.0.0.1:${REELFORGE_TEST_PG_PORT:-5499}.
set -euo pipefail
port=${REELFORGE_TEST_REDIS_PORT:-6399}
if ! redis-cli -p "$port" ping >/dev/null 2>&1; then
  redis-server --port "$port" --bind 127.0.0.1 --daemonize yes --save '' --appendonly no --dir /tmp --logfile /tmp/reelforge-redis.log
  for _ in $(seq 50); do redis-cli -p "$port" ping >/dev/null 2>&1 && break; sleep 0.1; done
  redis-cli -p "$port" ping >/dev/null || { echo "services: redis-server did not start (see /tmp/reelforge-redis.log)" >&2; exit 1; }
fi

# PostgreSQL (the second store the /v1 suite runs against) on 127.0.0.1:${REELFORGE_TEST_PG_PORT:-5499}: a
# throw-away cluster in /tmp with trust auth for the `reelforge` role, fsync off (test data only).
pgport=${REELFORGE_TEST_PG_PORT:-5499}
pgdir=/tmp/reelforge-pg-$pgport
if ! pg_isready -q -h 127.0.0.1 -p "$pgport" 2>/dev/null; then
  pgbin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
  # The server refuses to run as root: run it as Debian's postgres user then.
  as=()
  if [ "$(id -u)" = 0 ]; then as=(runuser -u postgres --); fi
  if [ ! -f "$pgdir/PG_VERSION" ]; then
    rm -rf "$pgdir"
    "${as[@]}" "$pgbin/initdb" -D "$pgdir" -A trust -U reelforge --no-sync >/tmp/reelforge-pg-init.log 2>&1 || { echo "services: initdb failed (see /tmp/reelforge-pg-init.log)" >&2; exit 1; }
  fi
  "${as[@]}" "$pgbin/pg_ctl" -D "$pgdir" -l "$pgdir.log" -w -t 30 \
    -o "-p $pgport -k /tmp -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300" start >/dev/null \
    || { echo "services: PostgreSQL did not start (see $pgdir.log)" >&2; exit 1; }
fi
