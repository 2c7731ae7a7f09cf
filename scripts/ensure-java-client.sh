#!/usr/bin/env bash
# Installs what the Java client test (server/test/original-client/) needs, from Debian's packages, where it
# is missing: the Jersey 1 client, JAXB API and runtime, and a JDK when there is no javac. Fast when all is
# there (it only looks for the files). Never fails: without root or apt-get, or when the install fails, it
# says so and the test is skipped with its reason (client.sh check).
set -uo pipefail
cd "$(dirname "$0")/.."
client=server/test/original-client/client.sh
reason=$("$client" check) && exit 0
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "ensure-java-client: not installing (needs root and apt-get): $reason" >&2
  exit 0
fi
packages=(libjersey1-client-java libjaxb-java libjaxb-api-java)
command -v javac >/dev/null 2>&1 || packages+=(default-jdk-headless)
echo "ensure-java-client: $reason; installing ${packages[*]} (Debian)" >&2
log=$(mktemp /tmp/usersvc-java-client.XXXXXX)
if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${packages[@]}"; } >"$log" 2>&1; then
  tail -5 "$log" >&2
  echo "ensure-java-client: apt-get install failed; the Java client test will be skipped" >&2
fi
rm -f "$log"
exit 0
