/**
 * The environment the self-test runs the suite's CLI in: the caller's, without the suite's own options
 * and a CI's (the deliberate defects are not this repository's annotations), a report folder of the
 * run's own, the summary reporter only, no colour; then `env` on top.
 *
 * Each rule gets 10 minutes (Playwright's --timeout; a run's own `--timeout` comes later and wins): the
 * self-test judges what the suite reports, and a rule's time is never its verdict. With the default 90 s,
 * USR-SIZE-01's 10,001 creates could not finish on a machine loaded enough (74 users a second), and a
 * correct implementation was reported incomplete.
 */
/** The explorer 5 s a rule (not 20), for the cases that are not about what it finds. */
export const BRIEF_EXPLORER = { CONFORMANCE_EXPLORE_MS: '5000' } as const;

export function suiteEnv(reportDir: string, env: Record<string, string>): NodeJS.ProcessEnv {
  const inherited: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(inherited)) if (/^(CONFORMANCE_|GITHUB_)/.test(name)) delete inherited[name];
  return {
    ...inherited,
    CONFORMANCE_REPORT_DIR: reportDir,
    CONFORMANCE_COUNTS_FILE: '',
    CONFORMANCE_REPORTERS: 'summary',
    CONFORMANCE_ARGS: '--timeout 600000',
    FORCE_COLOR: '0',
    ...env,
  };
}
