#!/usr/bin/env bash
# Builds the server as it was at a commit into reports/bench/builds/<commit>/, for before/after figures:
#   bench/build-at.sh 68a8b03
#   BENCH_SERVER_SCRIPT=reports/bench/builds/68a8b03/dist/server/src/main.js BENCH_ONLY=get-by-id,list-10000 tsx bench/run.ts
# (the work tree is not touched: the sources come from `git archive`).
set -euo pipefail
commit=${1:?usage: bench/build-at.sh <commit>}
cd "$(dirname "$0")/.."
out=reports/bench/builds/$commit
rm -rf "$out"
mkdir -p "$out"
git archive "$commit" server/src tsconfig.json tsconfig.build.json | tar -x -C "$out"
(cd "$out" && tsc -p tsconfig.build.json)
echo "$out/dist/server/src/main.js"
