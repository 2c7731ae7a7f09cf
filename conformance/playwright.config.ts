/**
 * The conformance suite: Playwright API tests (no browser) against any implementation of the spec.
 * Run it through the CLI (cli.mjs), which turns its options (support/options.mjs) into the environment
 * read here and in the support code. Reports: list output, JUnit XML and HTML in the report folder,
 * plus summary.json / summary.md. Reporters given with --reporter run beside these, never instead.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type ReporterDescription } from '@playwright/test';
import { setting } from './support/options.mjs';

// The same extension as this file: .ts in a clone, .js compiled into dist/ in an installed package.
const here = path.dirname(fileURLToPath(import.meta.url));
const ext = path.extname(fileURLToPath(import.meta.url));
// Relative paths are the caller's, not this package's.
const callerDir = process.env.CONFORMANCE_CWD || process.cwd();
const reportDir = path.resolve(callerDir, setting('CONFORMANCE_REPORT_DIR') as string);
const countsFile = setting('CONFORMANCE_COUNTS_FILE');
const expectFile = setting('CONFORMANCE_EXPECT_FILE');
const junitFile = path.join(reportDir, 'junit.xml');
const summary: ReporterDescription = [
  path.join(here, `reporter${ext}`),
  {
    outputDir: reportDir,
    countsFile: countsFile ? path.resolve(callerDir, countsFile) : undefined,
    expectFile: expectFile ? path.resolve(callerDir, expectFile) : undefined,
    specUrl: setting('CONFORMANCE_SPEC_URL'),
    name: setting('CONFORMANCE_NAME'),
    junitFile: process.env.CONFORMANCE_REPORTERS === 'summary' ? undefined : junitFile,
  },
];
// CONFORMANCE_REPORTERS=summary: only the dot line and the summary (used by the self-test).
const own: ReporterDescription[] =
  process.env.CONFORMANCE_REPORTERS === 'summary'
    ? [['dot'], summary]
    : [
        ['list'],
        ['junit', { outputFile: junitFile }],
        ['html', { outputFolder: path.join(reportDir, 'html'), open: 'never' }],
        summary,
      ];
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
