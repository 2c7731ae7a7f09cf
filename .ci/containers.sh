#!/usr/bin/env bash
# CI's container part (called by .ci/run): installs Docker and Compose from Debian's packages where they are
# missing, starts dockerd when no container runtime answers (and stops that daemon, by its pid, at the end),
# builds local stand-ins for the images when the official ones cannot be had, and runs make test-containers.
# Where no daemon can be started, the part is reported as skipped with the reason (a counted skip, not a
# failure, never a silent pass). Prints how long the part took.
set -uo pipefail
cd "$(dirname "$0")/.."
counts=reports/counts
started=$SECONDS
mkdir -p "$counts"
log=$(mktemp /tmp/usersvc-ci-containers.XXXXXX)
daemon_pid=

skip() {
  echo "== containers: skipped: $*"
  echo '{"passed":0,"failed":0,"skipped":1}' >"$counts/containers-skipped.json"
  exit 0
}

stop_daemon() {
  [ -n "$daemon_pid" ] || return 0
  if kill -TERM "$daemon_pid" 2>/dev/null; then
    for _ in $(seq 60); do kill -0 "$daemon_pid" 2>/dev/null || break; sleep 0.5; done
    kill -0 "$daemon_pid" 2>/dev/null && kill -KILL "$daemon_pid"
    echo "== containers: stopped the dockerd this run started (pid $daemon_pid)"
  fi
  daemon_pid=
}
trap stop_daemon EXIT

missing=()
command -v dockerd >/dev/null || missing+=(docker.io)
command -v docker-compose >/dev/null || missing+=(docker-compose)
command -v debootstrap >/dev/null || missing+=(debootstrap)
if [ ${#missing[@]} -gt 0 ]; then
  echo "== containers: installing ${missing[*]} (Debian)"
  answered_before=$(docker info >/dev/null 2>&1 && echo yes)
  if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"; } >"$log" 2>&1; then
    tail -5 "$log"
    command -v docker >/dev/null || skip "docker could not be installed (apt-get install ${missing[*]} failed)"
  fi
  # Where the package's init script started a daemon, this run started it: it is stopped at the end too.
  if [ -z "$answered_before" ] && docker info >/dev/null 2>&1 && [ -s /var/run/docker.pid ]; then
    daemon_pid=$(cat /var/run/docker.pid)
  fi
fi

if ! docker info >/dev/null 2>&1; then
  command -v dockerd >/dev/null || skip "no container runtime answers and there is no dockerd to start"
  echo "== containers: no container runtime answers; starting dockerd"
  dockerd >"$log" 2>&1 &
  daemon_pid=$!
  for _ in $(seq 60); do
    docker info >/dev/null 2>&1 && break
    kill -0 "$daemon_pid" 2>/dev/null || break
    sleep 0.5
  done
  if ! docker info >/dev/null 2>&1; then
    reason=$(grep -iE 'level=(error|fatal)|failed' "$log" | tail -1)
    stop_daemon
    skip "dockerd could not be started: ${reason:-see its log}"
  fi
fi

scripts/build-local-images.sh || { echo "== containers: the images could not be had or built"; }
status=0
make --no-print-directory test-containers || status=1
stop_daemon
rm -f "$log"
echo "== containers: the container part took $((SECONDS - started)) s"
exit $status
