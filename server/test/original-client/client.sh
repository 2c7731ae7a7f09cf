#!/usr/bin/env bash
# The Java client like the original service's own (src/com/tutorialspoint/WebServiceTester.java), built with
# javac against Debian's jars in /usr/share/java (Jersey 1 client, JAX-RS 1.1 API, JAXB API + runtime);
# `make ci-deps` installs them (.ci/deps.sh, as root); no test installs anything. No Maven, no download.
# JAVA_CLIENT_JARS: another folder of those jars (an empty one shows what the test says where they are missing).
#
#   client.sh check              exit 0 when it can be built and run; else prints why not and what to install, exit 1
#   client.sh packages           the Debian packages that would provide what is missing (none: prints nothing)
#   client.sh build DIR          compiles the client into DIR
#   client.sh run DIR BASE_URL   runs it against BASE_URL (e.g. http://127.0.0.1:8080), one line per case
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
jars_dir=${JAVA_CLIENT_JARS:-/usr/share/java}
# The Debian jars carry Class-Path manifests: jaxb-runtime.jar brings jaxb-core, txw2, istack, activation.
jars=(jersey1-client.jar jersey1-core.jar jsr311-api.jar jaxb-api.jar jaxb-runtime.jar)
# The Debian package of each jar (jersey1-core and jsr311-api come with the Jersey client), and of the JDK.
declare -A package_of=([jersey1-client.jar]=libjersey1-client-java [jersey1-core.jar]=libjersey1-client-java
  [jsr311-api.jar]=libjersey1-client-java [jaxb-api.jar]=libjaxb-api-java [jaxb-runtime.jar]=libjaxb-java)
jdk_package=default-jdk-headless

classpath() {
  local cp="" jar
  for jar in "${jars[@]}"; do cp+="${cp:+:}$jars_dir/$jar"; done
  echo "$cp"
}

missing_tools() {
  local tool
  for tool in javac java; do command -v "$tool" >/dev/null 2>&1 || echo "$tool"; done
}

missing_jars() {
  local jar
  for jar in "${jars[@]}"; do [ -f "$jars_dir/$jar" ] || echo "$jar"; done
}

packages() {
  local jar
  { [ -z "$(missing_tools)" ] || echo "$jdk_package"
    for jar in $(missing_jars); do echo "${package_of[$jar]}"; done; } | awk '!seen[$0]++' | paste -sd' ' -
}

check() {
  local tools jars_missing
  tools=$(missing_tools | paste -sd' ' -)
  jars_missing=$(missing_jars | paste -sd' ' -)
  [ -z "$tools" ] && [ -z "$jars_missing" ] && return 0
  echo "${tools:+no $tools on PATH}${tools:+${jars_missing:+; }}${jars_missing:+missing in $jars_dir: $jars_missing}:" \
    "run \`make ci-deps\` (as root), or apt-get install $(packages)"
  return 1
}

case "${1:-}" in
  check) check ;;
  packages) packages ;;
  build)
    [ $# -eq 2 ] || { echo "usage: $0 build DIR" >&2; exit 2; }
    mkdir -p "$2"
    javac -nowarn -encoding UTF-8 -cp "$(classpath)" -d "$2" "$here"/src/com/tutorialspoint/*.java
    ;;
  run)
    [ $# -eq 3 ] || { echo "usage: $0 run DIR BASE_URL" >&2; exit 2; }
    exec java -cp "$2:$(classpath)" com.tutorialspoint.WebServiceTester "$3"
    ;;
  *) echo "usage: $0 check | packages | build DIR | run DIR BASE_URL" >&2; exit 2 ;;
esac
