#!/usr/bin/env bash
# Step 2 of the GitHub Action (action.yml): runs the installed suite with the options the action's
# inputs put in the environment (CONFORMANCE_START_COMMAND, CONFORMANCE_BASE_URL, CONFORMANCE_EXPECT_FILE,
# CONFORMANCE_NAME, CONFORMANCE_SPEC_URL, CONFORMANCE_ARGS; empty ones are left out), into
# CONFORMANCE_REPORT_DIR (default conformance-report). Under GITHUB_ACTIONS=true the CLI itself prints
# the annotations and appends summary.md to $GITHUB_STEP_SUMMARY. This step never fails the job, so that
# the report is uploaded: it writes `exit-code`, `verdict` and `report-dir` to $GITHUB_OUTPUT, and the
# last step (conclude.sh) exits with the code.
#   CONFORMANCE_CLI   the suite's cli.mjs (the output `cli` of install.sh)
set -uo pipefail
: "${CONFORMANCE_CLI:?the path of cli.mjs of the installed suite (install.sh gives it)}"
for name in CONFORMANCE_START_COMMAND CONFORMANCE_BASE_URL CONFORMANCE_EXPECT_FILE CONFORMANCE_NAME \
  CONFORMANCE_SPEC_URL CONFORMANCE_ARGS; do
  if [ -z "${!name:-}" ]; then unset "$name"; fi
done
export CONFORMANCE_REPORT_DIR=${CONFORMANCE_REPORT_DIR:-conformance-report}
node "$CONFORMANCE_CLI"
code=$?
verdict=$(node -p 'JSON.parse(require("node:fs").readFileSync(process.argv[1], "utf8")).verdict' \
  "$CONFORMANCE_REPORT_DIR/summary.json" 2>/dev/null) || verdict='could not run'
echo "conformance: exit code $code, verdict: $verdict; reports in $CONFORMANCE_REPORT_DIR"
if [ -n "${GITHUB_OUTPUT:-}" ]; then
  { echo "exit-code=$code"; echo "verdict=$verdict"; echo "report-dir=$CONFORMANCE_REPORT_DIR"; } >>"$GITHUB_OUTPUT"
fi
exit 0
