/**
 * The conformance suite: Playwright API tests (no browser) against any implementation of the spec.
 * Run it through the CLI (cli.mjs), which turns its options (support/options.mjs) into the environment
 * read here and in the support code. Reports: a line per rule, Playwright's HTML (traces) in html/, and the
 * suite's own summary.json, summary.md, junit.xml and index.html (reporter.ts, report/). Reporters given with --reporter run beside these, never instead.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type ReporterDescription } from '@playwright/test';
import { REPORT_ROOT, setting } from './support/options.mjs';

// The same extension as this file: .ts in a clone, .js compiled into dist/ in an installed package.
const here = path.dirname(fileURLToPath(import.meta.url));
const ext = path.extname(fileURLToPath(import.meta.url));
// Relative paths are the caller's, not this package's.
const callerDir = process.env.CONFORMANCE_CWD || process.cwd();
const reportDir = path.resolve(callerDir, setting('CONFORMANCE_REPORT_DIR') ?? REPORT_ROOT);
const countsFile = setting('CONFORMANCE_COUNTS_FILE');
const expectFile = setting('CONFORMANCE_EXPECT_FILE');
const summary: ReporterDescription = [
  path.join(here, `reporter${ext}`),
  {
    outputDir: reportDir,
    countsFile: countsFile ? path.resolve(callerDir, countsFile) : undefined,
    expectFile: expectFile ? path.resolve(callerDir, expectFile) : undefined,
    specUrl: setting('CONFORMANCE_SPEC_URL'),
    name: setting('CONFORMANCE_NAME'),
    playwrightReport: process.env.CONFORMANCE_REPORTERS === 'summary' ? undefined : 'html/index.html',
  },
];
// The suite's reporter prints a line per rule and the verdict, and writes summary.json, summary.md,
// junit.xml and index.html (no Playwright terminal reporter: its counts are of tests, not of the suite's
// statuses); Playwright's HTML report (html/) keeps the traces. CONFORMANCE_REPORTERS=summary: the suite's
// reporter alone. --list (CONFORMANCE_LIST_ONLY, set by the CLI): the list of rules only, no report.
const own: ReporterDescription[] = process.env.CONFORMANCE_LIST_ONLY
  ? [['list']]
  : process.env.CONFORMANCE_REPORTERS === 'summary'
    ? [summary]
    : [['html', { outputFolder: path.join(reportDir, 'html'), open: 'never' }], summary];
const ownNames = new Set(own.map(([name]) => name));
const extra: ReporterDescription[] = (setting('CONFORMANCE_EXTRA_REPORTERS') ?? '')
  .split(',')
  .map((name) => name.trim())
  .filter((name) => name && !ownNames.has(name))
  .map((name): ReporterDescription => [name.startsWith('.') ? path.resolve(callerDir, name) : name]);

export default defineConfig({
  testDir: path.join(here, 'tests'),
  outputDir: path.join(reportDir, 'test-results'),
  fullyParallel: true,
  workers: Number(setting('CONFORMANCE_WORKERS')),
  retries: 0,
  timeout: 90_000,
  expect: { timeout: 5_000 },
  globalSetup: path.join(here, `support/global-setup${ext}`),
  reporter: [...own, ...extra],
  use: { extraHTTPHeaders: { 'User-Agent': 'user-service-conformance' } },
});
