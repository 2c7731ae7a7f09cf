#!/usr/bin/env bash
# Last step of the GitHub Action (action.yml), after the reports are uploaded: fails the job with the
# suite's exit code (CONFORMANCE_EXIT_CODE, the output `exit-code` of run.sh): 0 conforms, 1 does not
# conform, 2 usage error, 3 could not run. No exit code at all (the run step never ran) is 3.
set -euo pipefail
code=${CONFORMANCE_EXIT_CODE:-3}
case $code in
  0) echo 'conformance: conforms (no MUST rule failed but those --expect lists)' ;;
  1) echo 'conformance: does not conform (a MUST rule failed): see the annotations and the job summary' ;;
  2) echo 'conformance: usage error: see the run step' ;;
  *) echo 'conformance: could not run (the target never answered, or the run broke): see the run step' ;;
esac
exit "$code"
