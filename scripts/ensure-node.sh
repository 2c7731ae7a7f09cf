#!/usr/bin/env bash
# Prints the directory of a node binary that is at least v22, so the Makefile can put it first on PATH.
# When the machine's node is older (or missing), installs Node 24 from the npm registry (the `node`
# package ships the binary) into .tools/node; nothing global is changed.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
min_major=22
local_bin="$root/.tools/node/node_modules/node/bin"

major_of() { "$1" -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }

if [ -x "$local_bin/node" ] && [ "$(major_of "$local_bin/node")" -ge "$min_major" ]; then
  echo "$local_bin"; exit 0
fi
if command -v node >/dev/null 2>&1 && [ "$(major_of node)" -ge "$min_major" ]; then
  dirname "$(command -v node)"; exit 0
fi
command -v npm >/dev/null 2>&1 || { echo "ensure-node: need npm (any version) to fetch Node 24" >&2; exit 1; }
machine=$(command -v node >/dev/null 2>&1 && node --version || echo "missing")
echo "== installing Node 24 into .tools/node (first run only: the machine's node is $machine, the server needs >= v$min_major)" >&2
mkdir -p "$root/.tools/node"
# stdout is the Makefile's (it reads the path): npm writes to stderr, with its progress where that is a terminal.
progress=false; [ -t 2 ] && progress=true
npm install --prefix "$root/.tools/node" --no-save --no-audit --no-fund --loglevel=error --progress=$progress node@24 >&2
[ -x "$local_bin/node" ] || { echo "ensure-node: Node 24 install failed" >&2; exit 1; }
echo "$local_bin"
