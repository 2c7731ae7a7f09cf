#!/usr/bin/env bash
# The OCI labels of this repository's images, as `docker build` arguments: the version (package.json of
# the server, or conformance/package.json for the suite), the revision of docs/SPEC.md it implements or
# checks (conformance/tools/spec-revision.mjs), the source repository (IMAGE_SOURCE, else the git remote
# `origin`) and the commit. The Dockerfiles turn them into org.opencontainers.image.* labels.
#   docker build $(scripts/image-build-args.sh server) -t user-service .
#   docker build $(scripts/image-build-args.sh conformance) -t user-service-conformance CONTEXT
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
export PATH="$(scripts/ensure-node.sh):$PATH"
case ${1:-} in
  server) manifest=package.json ;;
  conformance) manifest=conformance/package.json ;;
  *) echo "usage: image-build-args.sh server|conformance" >&2; exit 2 ;;
esac
version=$(node -p "require('./$manifest').version")
spec=$(node conformance/tools/spec-revision.mjs docs/SPEC.md)
source=${IMAGE_SOURCE:-$(git remote get-url origin 2>/dev/null || true)}
revision=$(git rev-parse HEAD 2>/dev/null || true)
echo "--build-arg VERSION=$version --build-arg SPEC_REVISION=$spec --build-arg SOURCE=${source:-unknown} --build-arg REVISION=${revision:-unknown}"
