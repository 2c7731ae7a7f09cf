/**
 * The conformance suite: Playwright API tests (no browser) against any implementation of SPEC.md.
 * Target: CONFORMANCE_BASE_URL, CONFORMANCE_START_COMMAND, or the reference server (support/target.ts).
 * Reports: list output, JUnit XML and HTML in reports/conformance/, plus summary.json / summary.md.
 */
import path from 'node:path';
import { defineConfig, type ReporterDescription } from '@playwright/test';
import { REPO_ROOT } from './support/target.ts';

const reportDir = path.resolve(REPO_ROOT, process.env.CONFORMANCE_REPORT_DIR || 'reports/conformance');
const countsFile =
  process.env.CONFORMANCE_COUNTS_FILE ?? path.join(REPO_ROOT, 'reports/counts/conformance.json');
const summary: ReporterDescription = [
  './reporter.ts',
  { outputDir: reportDir, countsFile: countsFile || undefined },
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
