#!/usr/bin/env bash
# Starts the Docker daemon in the background when none answers, and waits (at most 30 s) until
# it does. Used by .ci/run before the gateway-image tests. The daemon keeps running afterwards;
# its log is .cache/dockerd.log (git-ignored), its pid .cache/dockerd.pid.
set -euo pipefail
cd "$(dirname "$0")/.."

log() { printf 'start-dockerd: %s\n' "$*" >&2; }

if docker info >/dev/null 2>&1; then
  log "a Docker daemon is running"
  exit 0
fi
command -v dockerd >/dev/null || { log "dockerd is not installed (apt-get install docker.io)"; exit 1; }

mkdir -p .cache
nohup dockerd >.cache/dockerd.log 2>&1 &
pid=$!
echo "$pid" >.cache/dockerd.pid
for _ in $(seq 1 150); do
  if docker info >/dev/null 2>&1; then
    log "dockerd (pid $pid) answers"
    exit 0
  fi
  if ! kill -0 "$pid" 2>/dev/null; then
    log "dockerd exited; last lines of .cache/dockerd.log:"
    tail -n 20 .cache/dockerd.log >&2
    exit 1
  fi
  sleep 0.2
done
log "dockerd (pid $pid) did not answer within 30 s; last lines of .cache/dockerd.log:"
tail -n 20 .cache/dockerd.log >&2
exit 1
