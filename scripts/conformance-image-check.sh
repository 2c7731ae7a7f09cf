#!/usr/bin/env bash
# The conformance suite's image, as an implementer would use it: builds it from a context prepared on the host
# (scripts/prepare-conformance-image-context.sh: the packed suite, its lock file, node_modules), runs it with
# --network host against the self-test's correct implementation started on the host, and checks the run:
# exit code 0, a summary with the suite's version, no MUST rule failed (the fresh-instance rules are skipped,
# as they must be with a URL only); its OCI labels (version, spec revision) and its user (node, not root).
# Removes its image and folders afterwards.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
export PATH="$(scripts/ensure-node.sh):$PATH"
image=usersvc-conformance-check:latest
work=$(mktemp -d /tmp/usersvc-conformance-image.XXXXXX)
impl_pid=
cleanup() {
  [ -n "$impl_pid" ] && kill "$impl_pid" 2>/dev/null || true
  docker image rm -f "$image" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

scripts/prepare-conformance-image-context.sh "$work/context"
# shellcheck disable=SC2046 # the build arguments are words
docker build -q $(scripts/image-build-args.sh conformance) -t "$image" "$work/context" >/dev/null
# Ready to publish: the labels say what is inside, and it does not run as root.
labels=$(docker image inspect -f '{{index .Config.Labels "org.opencontainers.image.version"}} {{index .Config.Labels "io.user-service.spec.revision"}} {{.Config.User}}' "$image")
expected="$(node -p "require('./conformance/package.json').version") $(node conformance/tools/spec-revision.mjs docs/SPEC.md) node"
if [ "$labels" != "$expected" ]; then echo "conformance image: labels and user '$labels', expected '$expected'" >&2; exit 1; fi
port=$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
mkdir -p "$work/data" "$work/report" && chmod 777 "$work/report"
node conformance/selftest/impl/server.mjs --port "$port" --data "$work/data" &
impl_pid=$!
for _ in $(seq 50); do curl -s -o /dev/null "http://127.0.0.1:$port/" && break; sleep 0.2; done
code=0
# Every rule, the explorer's for 5 s each (what is checked here is the image, not the explorer's reach).
docker run --rm --network host -e CONFORMANCE_EXPLORE_MS=5000 -v "$work/report:/report" "$image" \
  --base-url "http://127.0.0.1:$port" --report /report --name 'self-test implementation (image)' || code=$?
version=$(node -p "require('./conformance/package.json').version")
node -e '
const [file, version, code] = process.argv.slice(1);
const s = JSON.parse(require("fs").readFileSync(file, "utf8"));
const problems = [];
if (code !== "0") problems.push(`exit code ${code}`);
if (s.suite?.version !== version) problems.push(`suite version ${s.suite?.version}, expected ${version}`);
if (s.counts.failed !== 0) problems.push(`${s.counts.failed} MUST rule(s) failed`);
if (s.verdict === "does not conform") problems.push(`verdict ${s.verdict}`);
if (problems.length) { console.error(`conformance image: ${problems.join("; ")}`); process.exit(1); }
console.log(`conformance image: ${s.suite.name} ${s.suite.version}: ${s.verdict}, ${s.counts.passed} passed, ${s.counts.skipped} skipped (URL only)`);
' "$work/report/summary.json" "$version" "$code"
