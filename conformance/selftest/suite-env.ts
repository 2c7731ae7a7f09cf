/**
 * The environment the self-test runs the suite's CLI in: the caller's, without the suite's own options
 * and a CI's (the deliberate defects are not this repository's annotations), a report folder of the
 * run's own, the summary reporter only, no colour; then `env` on top.
 */
export function suiteEnv(reportDir: string, env: Record<string, string>): NodeJS.ProcessEnv {
  const inherited: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(inherited)) if (/^(CONFORMANCE_|GITHUB_)/.test(name)) delete inherited[name];
  return {
    ...inherited,
    CONFORMANCE_REPORT_DIR: reportDir,
    CONFORMANCE_COUNTS_FILE: '',
    CONFORMANCE_REPORTERS: 'summary',
    FORCE_COLOR: '0',
    ...env,
  };
}
