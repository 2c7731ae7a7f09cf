#!/usr/bin/env bash
# CI's container runtime, around make test-all (called by .ci/run, as root):
#   .ci/containers.sh start  installs Docker, Compose and debootstrap from Debian's packages where they are
#                            missing, starts dockerd when no container runtime answers (its pid kept in
#                            reports/ci/dockerd.pid), and builds local stand-ins for the images when the
#                            official ones cannot be had. Where no runtime can be had it says why, and
#                            make test-all counts the container part as skipped (never a silent pass).
#   .ci/containers.sh behind start, in the background (its output in reports/ci/containers-start.log), so that
#                            it runs beside make test; `ready` waits for it to end (make test-all calls it
#                            through BEFORE_CONTAINERS before it asks whether a runtime answers).
#   .ci/containers.sh ready  waits until the start begun by `behind` has ended (at most 30 min), prints its output.
#   .ci/containers.sh stop   stops the dockerd that start started, by its pid.
set -uo pipefail
cd "$(dirname "$0")/.."
pid_file=reports/ci/dockerd.pid
mkdir -p reports/ci
log=reports/ci/containers.log

say() { echo "== containers: $*"; }

stop_daemon() {
  [ -s "$pid_file" ] || return 0
  local pid
  pid=$(cat "$pid_file")
  rm -f "$pid_file"
  if kill -TERM "$pid" 2>/dev/null; then
    for _ in $(seq 60); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
    kill -0 "$pid" 2>/dev/null && kill -KILL "$pid"
    say "stopped the dockerd this run started (pid $pid)"
  fi
}

start() {
  local started=$SECONDS missing=()
  command -v dockerd >/dev/null || missing+=(docker.io)
  command -v docker-compose >/dev/null || missing+=(docker-compose)
  command -v debootstrap >/dev/null || missing+=(debootstrap)
  if [ ${#missing[@]} -gt 0 ]; then
    say "installing ${missing[*]} (Debian)"
    local answered_before
    answered_before=$(docker info >/dev/null 2>&1 && echo yes)
    if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"; } >"$log" 2>&1; then
      tail -5 "$log"
      command -v docker >/dev/null || { say "docker could not be installed (apt-get install ${missing[*]} failed)"; return 0; }
    fi
    # Where the package's init script started a daemon, this run started it: it is stopped at the end too.
    if [ -z "$answered_before" ] && docker info >/dev/null 2>&1 && [ -s /var/run/docker.pid ]; then
      cp /var/run/docker.pid "$pid_file"
    fi
  fi
  if ! docker info >/dev/null 2>&1; then
    command -v dockerd >/dev/null || { say "no container runtime answers and there is no dockerd to start"; return 0; }
    say "no container runtime answers; starting dockerd"
    dockerd >"$log" 2>&1 &
    echo $! >"$pid_file"
    for _ in $(seq 60); do
      docker info >/dev/null 2>&1 && break
      kill -0 "$(cat "$pid_file")" 2>/dev/null || break
      sleep 0.5
    done
    if ! docker info >/dev/null 2>&1; then
      say "dockerd could not be started: $(grep -iE 'level=(error|fatal)|failed' "$log" | tail -1)"
      stop_daemon
      return 0
    fi
  fi
  scripts/build-local-images.sh || say "the images could not be had or built"
  say "the runtime took $((SECONDS - started)) s to get ready"
}

behind_log=reports/ci/containers-start.log
behind_done=reports/ci/containers-start.done

behind() {
  rm -f "$behind_done"
  ( start >"$behind_log" 2>&1; touch "$behind_done" ) &
  say "starting in the background (pid $!): apt, dockerd, local images; output in $behind_log"
}

ready() {
  local waited=$SECONDS
  # The background start ends by writing the file: wait for that (apt and debootstrap take 5-6 min on a fresh machine).
  while [ ! -e "$behind_done" ] && [ $((SECONDS - waited)) -lt 1800 ]; do sleep 1; done
  [ -e "$behind_done" ] || say "the background start did not end within 30 min"
  say "waited $((SECONDS - waited)) s for the background start; its output:"
  cat "$behind_log" 2>/dev/null
}

case "${1:-}" in
  start) start ;;
  behind) behind ;;
  ready) ready ;;
  stop) stop_daemon ;;
  *) echo "usage: .ci/containers.sh start|behind|ready|stop" >&2; exit 2 ;;
esac
