#!/usr/bin/env bash
# Prepares, on the host, the Docker build context of the conformance suite's image (conformance/Dockerfile):
# the packed suite (npm pack: compiled to JavaScript), a package.json that depends on that tarball, the
# package-lock.json of its installation and the installed node_modules/, so that the build needs no
# registry (the same offline route as the server image: scripts/prepare-image-context.sh). Without
# node_modules/ in the context, the build installs from the lock file with npm ci instead.
# Usage: prepare-conformance-image-context.sh DIR; then docker build -t user-service-conformance DIR
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:?usage: prepare-conformance-image-context.sh DIR}
node_bin=$("$root/scripts/ensure-node.sh")
export PATH="$node_bin:$root/node_modules/.bin:$PATH" npm_config_update_notifier=false

rm -rf "$dir" && mkdir -p "$dir"
(cd "$root/conformance" && npm pack --pack-destination "$dir" --loglevel=error >/dev/null)
mv "$dir"/user-service-conformance-*.tgz "$dir/user-service-conformance.tgz"
cat >"$dir/package.json" <<'JSON'
{
  "name": "user-service-conformance-image",
  "private": true,
  "dependencies": { "user-service-conformance": "file:user-service-conformance.tgz" }
}
JSON
(cd "$dir" && npm install --omit=dev --no-audit --no-fund --ignore-scripts --loglevel=error >/dev/null)
cp "$root/conformance/Dockerfile" "$dir/Dockerfile"
echo "prepare-conformance-image-context: $dir ($(du -sh "$dir" | cut -f1))"
