/**
 * The self-test's tiers, from SELFTEST_TIER: `quick` (make test, before a push) runs one case of each
 * kind (impl/defects.mjs's QUICK, and the cases marked quick); `rest` (make test-all, after make test)
 * runs every other case and nothing twice; `full` (the default, as an implementer runs it) runs all.
 */
export const TIER: 'quick' | 'rest' | 'full' =
  process.env.SELFTEST_TIER === 'quick' || process.env.SELFTEST_TIER === 'rest'
    ? process.env.SELFTEST_TIER
    : 'full';

/** Whether a case runs in this tier; `quick`: the case is one of the quick tier's. */
export const inTier = (quick: boolean): boolean => TIER === 'full' || (TIER === 'quick') === quick;
