#!/usr/bin/env bash
# Prints the Debian mirror this machine's apt already uses (the first archive in its sources), so that the
# scripts which fetch Debian packages for images ask the same place apt does and the project names none.
# DEBIAN_MIRROR overrides it. Exits 1, saying why, when no source can be read.
set -euo pipefail
if [ -n "${DEBIAN_MIRROR:-}" ]; then echo "$DEBIAN_MIRROR"; exit 0; fi
mirror=$(
  {
    # deb822 files: "URIs: http://host/debian" (the security archive comes second in Debian's own file).
    { cat /etc/apt/sources.list.d/*.sources 2>/dev/null || true; } | sed -n 's/^URIs:[[:space:]]*\([^[:space:]]*\).*/\1/p'
    # one-line format: "deb [options] http://host/debian suite components"
    { cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null || true; } |
      sed -n 's/^deb[[:space:]]\+\(\[[^]]*\][[:space:]]\+\)\?\([^[:space:]]*\).*/\2/p'
  } | { grep -v -- '-security' || true; } | head -n 1
)
[ -n "$mirror" ] || { echo "debian-mirror: no Debian archive in /etc/apt/sources*: set DEBIAN_MIRROR" >&2; exit 1; }
echo "$mirror"
