/**
 * The conformance suite: Playwright API tests (no browser) against any implementation of the spec.
 * Run it through the CLI (cli.mjs), which turns its options into the environment read here and in
 * support/target.ts: CONFORMANCE_BASE_URL, CONFORMANCE_START_COMMAND, CONFORMANCE_REPORT_DIR, ...
 * Reports: list output, JUnit XML and HTML in the report folder, plus summary.json / summary.md.
 */
import path from 'node:path';
import { defineConfig, type ReporterDescription } from '@playwright/test';

// Relative paths are the caller's, not this package's.
const callerDir = process.env.CONFORMANCE_CWD || process.cwd();
const reportDir = path.resolve(callerDir, process.env.CONFORMANCE_REPORT_DIR || 'reports/conformance');
const countsFile = process.env.CONFORMANCE_COUNTS_FILE
  ? path.resolve(callerDir, process.env.CONFORMANCE_COUNTS_FILE)
  : undefined;
const summary: ReporterDescription = [
  './reporter.ts',
  { outputDir: reportDir, countsFile, specUrl: process.env.CONFORMANCE_SPEC_URL || undefined },
];
// CONFORMANCE_REPORTERS=summary: only the dot line and the summary (used by the self-test).
const reporters: ReporterDescription[] =
  process.env.CONFORMANCE_REPORTERS === 'summary'
    ? [['dot'], summary]
    : [
        ['list'],
        ['junit', { outputFile: path.join(reportDir, 'junit.xml') }],
        ['html', { outputFolder: path.join(reportDir, 'html'), open: 'never' }],
        summary,
      ];

export default defineConfig({
  testDir: './tests',
  outputDir: path.join(reportDir, 'test-results'),
  fullyParallel: true,
  workers: Number(process.env.CONFORMANCE_WORKERS || 2),
  retries: 0,
  timeout: 90_000,
  expect: { timeout: 5_000 },
  globalSetup: './support/global-setup.ts',
  reporter: reporters,
  use: { extraHTTPHeaders: { 'User-Agent': 'user-service-conformance' } },
});
