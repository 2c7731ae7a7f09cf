#!/usr/bin/env bash
# Step 1 of the GitHub Action (action.yml), also usable as it is in any CI: installs the suite into a
# folder of its own, as an implementer gets it, and says where its CLI is (`cli=` in $GITHUB_OUTPUT).
#   CONFORMANCE_PACKAGE   what to install: a registry spec (user-service-conformance@0.4.0) or a tarball;
#                         empty: the suite of the action's own folder ($GITHUB_ACTION_PATH), packed first.
#   RUNNER_TEMP           where the suite is installed (default: a new temporary folder)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
action=${GITHUB_ACTION_PATH:-$here}
root=$(mktemp -d "${RUNNER_TEMP:-${TMPDIR:-/tmp}}/user-service-conformance.XXXXXX")
npm_quiet=(--no-audit --no-fund --loglevel=error)
package=${CONFORMANCE_PACKAGE:-}
if [ -z "$package" ]; then
  # A copy outside the repository: npm then builds it as the package it is, not as a workspace member.
  mkdir "$root/source"
  tar -C "$action" --exclude=node_modules --exclude=dist --exclude=reports -cf - . | tar -C "$root/source" -xf -
  (cd "$root/source" && npm install "${npm_quiet[@]}" >/dev/null && npm pack --pack-destination "$root" "${npm_quiet[@]}" >/dev/null)
  package=$(ls "$root"/user-service-conformance-*.tgz)
  rm -rf "$root/source"
elif [ -f "$package" ]; then
  package=$(cd "$(dirname "$package")" && pwd)/$(basename "$package")
fi
mkdir "$root/install"
(cd "$root/install" && npm init -y >/dev/null && npm install "${npm_quiet[@]}" "$package" >/dev/null)
cli=$root/install/node_modules/user-service-conformance/cli.mjs
echo "conformance: installed $(node "$cli" --version) from $package"
if [ -n "${GITHUB_OUTPUT:-}" ]; then echo "cli=$cli" >>"$GITHUB_OUTPUT"; fi
