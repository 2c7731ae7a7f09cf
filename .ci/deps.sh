#!/usr/bin/env bash
# `make ci-deps` (CI runs it before the tests): installs from Debian's packages what tests need from the system,
# where it is missing. No test target installs anything; where these are missing, the tests that need them are
# skipped, saying what to install.
#   - the Java client test (server/test/original-client/): a JDK, the Jersey 1 client, the JAXB API and runtime
#     (client.sh packages names the packages for what is missing);
#   - the conformance self-test (conformance/selftest/ci.test.ts): xmllint (libxml2-utils) and chromium.
# As root, or through sudo without a password, with apt-get. Exits 1 when it could not install them.
set -uo pipefail
cd "$(dirname "$0")/.."
client=server/test/original-client/client.sh
read -ra packages <<<"$("$client" packages)"
command -v xmllint >/dev/null 2>&1 || packages+=(libxml2-utils)
command -v chromium >/dev/null 2>&1 || packages+=(chromium)
if [ ${#packages[@]} -eq 0 ]; then
  echo "ci-deps: nothing to install (the JDK, the Java client's jars, xmllint and chromium are there)"
  exit 0
fi
command -v apt-get >/dev/null 2>&1 || { echo "ci-deps: no apt-get to install ${packages[*]}" >&2; exit 1; }
if [ "$(id -u)" = 0 ]; then sudo=(); elif sudo -n true 2>/dev/null; then sudo=(sudo -n); else
  echo "ci-deps: installing ${packages[*]} needs root (or sudo without a password)" >&2; exit 1
fi
echo "ci-deps: installing ${packages[*]} (Debian)"
log=$(mktemp /tmp/usersvc-ci-deps.XXXXXX)
if ! { "${sudo[@]}" apt-get update -qq &&
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${packages[@]}"; } >"$log" 2>&1; then
  tail -5 "$log" >&2
  rm -f "$log"
  echo "ci-deps: apt-get install ${packages[*]} failed" >&2
  exit 1
fi
rm -f "$log"
reason=$("$client" check) || { echo "ci-deps: installed, yet the Java client test would be skipped: $reason" >&2; exit 1; }
echo "ci-deps: done"
