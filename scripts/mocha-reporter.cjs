// The spec reporter, plus a counts file (reports/counts/<MOCHA_SUITE_NAME>.json) that scripts/tally.mjs
// adds up, so CI can print one "N passed, N failed" line for every test runner it ran. COUNTS_DIR moves
// the folder (for a runner started in another folder).
const fs = require('node:fs');
const path = require('node:path');
const { Spec } = require('mocha').reporters;

class SpecWithCounts extends Spec {
  constructor(runner, options) {
    super(runner, options);
    runner.once('end', () => {
      const name = process.env.MOCHA_SUITE_NAME || 'mocha';
      const dir = path.resolve(process.env.COUNTS_DIR || 'reports/counts');
      fs.mkdirSync(dir, { recursive: true });
      const { passes = 0, failures = 0, pending = 0 } = this.stats;
      fs.writeFileSync(
        path.join(dir, `${name}.json`),
        JSON.stringify({ passed: passes, failed: failures, skipped: pending }),
      );
    });
  }
}
module.exports = SpecWithCounts;
