// The self-test's mocha settings. SELFTEST_TIER=rest (make test-all, after make test) reads only the files
// that hold cases of that tier (selftest/tier.ts), the one with the longest runs first; the other tiers
// read every file.
module.exports = {
  spec:
    process.env.SELFTEST_TIER === 'rest'
      ? ['selftest/hostile.test.ts', 'selftest/selftest.test.ts']
      : ['selftest/*.test.ts'],
  timeout: 180000,
  slow: 20000,
};
