#!/usr/bin/env bash
# make test-containers: the container paths, on a machine where a container runtime answers.
#  (a) what differs with the test Redis in a container (TEST_REDIS=container): the test kit's own tests of
#      that path, then a smoke of the rest (the users' tests; the conformance suite's sequence and collection
#      rules, restarts included: the container keeps the data across them). Everything else is the same
#      server over the same protocol, run by make test on a local redis-server;
#  (b) the compose stack (scripts/compose-check.mjs) with Compose v1 and v2, where each can be had; the
#      server image is built from a context prepared on the host (scripts/prepare-image-context.sh), unless
#      SERVER_BUILD_CONTEXT=. asks for the build from source;
#  (c) the conformance suite's image (conformance/Dockerfile, scripts/conformance-image-check.sh).
# Counts go to reports/counts/containers-*.json; ends with "N passed, N failed" over them. Leaves no
# container, network or volume of its own behind (checked at the end).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
counts=reports/counts
mkdir -p "$counts" && rm -f "$counts"/containers-*.json
started=$SECONDS
status=0
runners=()

if ! docker info >/dev/null 2>&1; then
  echo "test-containers: no container runtime answers (docker info failed)" >&2
  exit 1
fi
for image in "${TEST_REDIS_IMAGE:-redis:7-alpine}" node:24-bookworm-slim; do
  if ! docker image inspect "$image" >/dev/null 2>&1 && ! docker pull --quiet "$image" >/dev/null 2>&1; then
    echo "test-containers: the image $image is not present and cannot be pulled; scripts/build-local-images.sh builds a local one" >&2
    exit 1
  fi
done

echo "== (a) the test kit and the users' tests with TEST_REDIS=container"
TEST_REDIS=container MOCHA_SUITE_NAME=containers-server mocha --config server/test/.mocharc.containers.json || status=1
runners+=(containers-server)

echo "== (a) the conformance suite's sequence and collection rules on the reference server with TEST_REDIS=container"
TEST_REDIS=container CONFORMANCE_COUNTS_FILE="$root/$counts/containers-conformance.json" \
  CONFORMANCE_REPORT_DIR=reports/containers/conformance CONFORMANCE_ARGS="--grep USR-SEQ-|USR-COL-" \
  make --no-print-directory conformance || status=1
runners+=(containers-conformance)

echo "== (b) the compose stack"
context=${SERVER_BUILD_CONTEXT:-}
if [ -z "$context" ]; then
  context=$(mktemp -d /tmp/usersvc-image-context.XXXXXX)
  trap 'rm -rf "$context"' EXIT
  scripts/prepare-image-context.sh "$context" || status=1
fi
export SERVER_BUILD_CONTEXT=$context
if command -v docker-compose >/dev/null 2>&1; then
  node scripts/compose-check.mjs compose-v1 docker-compose || status=1
  runners+=(containers-compose-v1 containers-compose-v1-conformance)
else
  echo "  compose v1 (docker-compose): not installed, not checked"
fi
if v2_config=$(scripts/compose-v2.sh); then
  DOCKER_CONFIG=${v2_config:-${DOCKER_CONFIG:-$HOME/.docker}} node scripts/compose-check.mjs compose-v2 docker compose || status=1
  runners+=(containers-compose-v2 containers-compose-v2-conformance)
else
  echo "  compose v2 (docker compose): cannot be had here, not checked"
fi

echo "== (c) the conformance suite's image (from the packed suite and its lock file) against the self-test implementation"
if scripts/conformance-image-check.sh; then
  echo '{"passed":1,"failed":0}' >"$counts/containers-conformance-image.json"
else
  echo '{"passed":0,"failed":1}' >"$counts/containers-conformance-image.json"
  status=1
fi
runners+=(containers-conformance-image)

# The reaper, where it ran, removes itself a few seconds after the last test process has gone.
for _ in $(seq 30); do
  left=$(docker ps -aq --filter label=usersvc.test-redis.owner; docker ps -aq --filter label=org.testcontainers.ryuk=true)
  [ -z "$left" ] && break
  sleep 1
done
if [ -n "$left" ]; then
  echo "test-containers: containers left behind: $(echo "$left" | tr '\n' ' ')" >&2
  echo '{"passed":0,"failed":1}' >"$counts/containers-leftovers.json"
else
  echo '{"passed":1,"failed":0}' >"$counts/containers-leftovers.json"
fi
runners+=(containers-leftovers)

echo "== test-containers took $((SECONDS - started)) s"
node scripts/tally.mjs --only "${runners[@]}" || status=1
exit $status
