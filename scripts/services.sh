#!/usr/bin/env bash
# Starts the servers the distributed back-end tests use, on loopback, unless they already run (no systemd):
#   Redis (BullMQ's queue) on 127.0.0.1:${REELFORGE_TEST_REDIS_PORT:-6399}, no persistence.
set -euo pipefail
port=${REELFORGE_TEST_REDIS_PORT:-6399}
if ! redis-cli -p "$port" ping >/dev/null 2>&1; then
  redis-server --port "$port" --bind 127.0.0.1 --daemonize yes --save '' --appendonly no --dir /tmp --logfile /tmp/reelforge-redis.log
  for _ in $(seq 50); do redis-cli -p "$port" ping >/dev/null 2>&1 && break; sleep 0.1; done
  redis-cli -p "$port" ping >/dev/null || { echo "services: redis-server did not start (see /tmp/reelforge-redis.log)" >&2; exit 1; }
fi
