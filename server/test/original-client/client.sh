#!/usr/bin/env bash
# The Java client like the original service's own (src/com/tutorialspoint/WebServiceTester.java), built with
# javac against Debian's jars in /usr/share/java (Jersey 1 client, JAX-RS 1.1 API, JAXB API + runtime);
# scripts/ensure-java-client.sh installs them. No Maven, no download.
#
#   client.sh check              exit 0 when it can be built and run; else prints why not, exit 1
#   client.sh build DIR          compiles the client into DIR
#   client.sh run DIR BASE_URL   runs it against BASE_URL (e.g. http://127.0.0.1:8080), one line per case
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
jars_dir=${JAVA_CLIENT_JARS:-/usr/share/java}
# The Debian jars carry Class-Path manifests: jaxb-runtime.jar brings jaxb-core, txw2, istack, activation.
jars=(jersey1-client.jar jersey1-core.jar jsr311-api.jar jaxb-api.jar jaxb-runtime.jar)

classpath() {
  local cp="" jar
  for jar in "${jars[@]}"; do cp+="${cp:+:}$jars_dir/$jar"; done
  echo "$cp"
}

check() {
  local tool jar missing=()
  for tool in javac java; do
    command -v "$tool" >/dev/null 2>&1 || { echo "no $tool on PATH (a JDK, e.g. Debian's default-jdk-headless)"; return 1; }
  done
  for jar in "${jars[@]}"; do [ -f "$jars_dir/$jar" ] || missing+=("$jar"); done
  if [ ${#missing[@]} -gt 0 ]; then
    echo "missing in $jars_dir: ${missing[*]} (scripts/ensure-java-client.sh installs them from Debian's packages, as root)"
    return 1
  fi
}

case "${1:-}" in
  check) check ;;
  build)
    [ $# -eq 2 ] || { echo "usage: $0 build DIR" >&2; exit 2; }
    mkdir -p "$2"
    javac -nowarn -encoding UTF-8 -cp "$(classpath)" -d "$2" "$here"/src/com/tutorialspoint/*.java
    ;;
  run)
    [ $# -eq 3 ] || { echo "usage: $0 run DIR BASE_URL" >&2; exit 2; }
    exec java -cp "$2:$(classpath)" com.tutorialspoint.WebServiceTester "$3"
    ;;
  *) echo "usage: $0 check | build DIR | run DIR BASE_URL" >&2; exit 2 ;;
esac
