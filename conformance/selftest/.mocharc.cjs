// The self-test's mocha settings, by tier (selftest/tier.ts). The files of the suite as a package (packed,
// installed, run from node:test, vitest and a CI) are all in the rest tier (make test-all), beside the
// cases of the other files that are not quick, the longest runs first; quick (make test) reads every
// other file; full reads them all.
const PACKAGE = ['selftest/api.test.ts', 'selftest/ci.test.ts', 'selftest/report.test.ts'];
const tier = process.env.SELFTEST_TIER;
module.exports = {
  spec:
    tier === 'rest'
      ? ['selftest/hostile.test.ts', 'selftest/selftest.test.ts', ...PACKAGE]
      : ['selftest/*.test.ts'],
  ignore: tier === 'quick' ? PACKAGE : [],
  timeout: 180000,
  slow: 20000,
};
