#!/usr/bin/env bash
# Prepares, on the host, a Docker build context for the server image that needs no network inside the
# build: the compiled dist/, the production dependencies (npm install --omit=dev, as the Dockerfile does)
# and the package files, with Dockerfile.prebuilt as its Dockerfile. Usage: prepare-image-context.sh DIR
# Then: docker build -t usersvc-server DIR, or SERVER_BUILD_CONTEXT=DIR docker compose up --build.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:?usage: prepare-image-context.sh DIR}
node_bin=$("$root/scripts/ensure-node.sh")
export PATH="$node_bin:$PATH" npm_config_update_notifier=false

make -C "$root" --no-print-directory build >/dev/null
rm -rf "$dir" && mkdir -p "$dir"
cp "$root/package.json" "$root/package-lock.json" "$dir/"
cp -R "$root/dist" "$dir/dist"
rm -f "$dir/dist/.build-stamp"
(cd "$dir" && npm install --omit=dev --no-audit --no-fund --ignore-scripts --loglevel=error >/dev/null)
cp "$root/Dockerfile.prebuilt" "$dir/Dockerfile"
echo "prepare-image-context: $dir ($(du -sh "$dir" | cut -f1))"
