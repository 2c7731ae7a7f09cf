#!/usr/bin/env bash
# Makes Compose v2 (`docker compose`) usable where the system has only v1 (Debian 12 ships docker-compose
# 1.29): takes the plugin binary out of Debian 13's docker-compose package (apt-get download with a private
# package list; nothing on the system changes) into .tools/docker/cli-plugins. Prints the folder to use as
# DOCKER_CONFIG, or nothing when `docker compose` already works; exits 1 with the reason when it cannot.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
config="$root/.tools/docker"
plugin="$config/cli-plugins/docker-compose"
DEBIAN_MIRROR=$("$root/scripts/debian-mirror.sh")

if docker compose version >/dev/null 2>&1; then exit 0; fi
if [ -x "$plugin" ] && DOCKER_CONFIG="$config" docker compose version >/dev/null 2>&1; then
  echo "$config"; exit 0
fi
command -v apt-get >/dev/null || { echo "compose-v2: no apt-get to fetch Debian's docker-compose" >&2; exit 1; }
work=$(mktemp -d /tmp/usersvc-compose-v2.XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/lists/partial" "$work/cache/archives/partial"
echo "deb $DEBIAN_MIRROR trixie main" >"$work/sources.list"
apt=(-o "Dir::Etc::SourceList=$work/sources.list" -o Dir::Etc::SourceParts=/dev/null
  -o "Dir::State::Lists=$work/lists" -o "Dir::Cache=$work/cache" -o APT::Sandbox::User=root)
apt-get "${apt[@]}" -qq update >"$work/log" 2>&1 || { tail -3 "$work/log" >&2; exit 1; }
(cd "$work" && apt-get "${apt[@]}" -qq download docker-compose >>"$work/log" 2>&1) || { tail -3 "$work/log" >&2; exit 1; }
dpkg-deb -x "$work"/docker-compose_*.deb "$work/x"
found=$(find "$work/x" -path '*cli-plugins/docker-compose' -type f | head -1)
[ -n "$found" ] || { echo "compose-v2: Debian's docker-compose package holds no cli plugin" >&2; exit 1; }
mkdir -p "$config/cli-plugins"
install -m 755 "$found" "$plugin"
DOCKER_CONFIG="$config" docker compose version >/dev/null 2>&1 || { echo "compose-v2: the plugin does not run here" >&2; exit 1; }
echo "$config"
