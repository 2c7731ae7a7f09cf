#!/usr/bin/env node
// The suite's command line: turns its options into the environment the Playwright config reads, runs
// `playwright test` on this package's tests, and exits with its status. The last line of the output
// is `N passed, N failed` (rules passed, MUST rules failed); the exit code is non-zero if and only if
// a MUST rule failed or the target never answered.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HELP = `usage: user-service-conformance [--base-url URL] [--start COMMAND] [options] [playwright options]

Target (one or both):
  --base-url URL     a running implementation ({base_url}); nothing is started
  --start COMMAND    a shell command starting an implementation, with {port} and {data} replaced by a
                     free port and a fresh empty folder (also given as PORT and DATA_DIR); run from the
                     current folder. Needed for the rules about a fresh service and a restart.
Options:
  --report DIR       where the reports go (default reports/conformance)
  --grep PATTERN     only the rules whose title matches (USR-PUT, @MUST, ...)
  --spec-url URL     where the spec lives, to link statement ids in summary.md (e.g. https://host/repo/docs/SPEC.md)
  -h, --help         this text
Any other option goes to \`playwright test\` (--workers 1, --list, --reporter, ...).

Environment equivalents: CONFORMANCE_BASE_URL, CONFORMANCE_START_COMMAND, CONFORMANCE_REPORT_DIR,
CONFORMANCE_SPEC_URL, CONFORMANCE_ARGS (extra options, split at spaces). Others: CONFORMANCE_WORKERS,
CONFORMANCE_START_TIMEOUT_MS, CONFORMANCE_STOP_TIMEOUT_MS, CONFORMANCE_ASYNC_TIMEOUT_MS,
CONFORMANCE_COUNTS_FILE (a {"passed","failed"} file for a CI tally).`;

const OPTIONS = {
  '--base-url': 'CONFORMANCE_BASE_URL',
  '--start': 'CONFORMANCE_START_COMMAND',
  '--report': 'CONFORMANCE_REPORT_DIR',
  '--spec-url': 'CONFORMANCE_SPEC_URL',
};

/** `a 'b c' "d"` → ['a', 'b c', 'd']: enough quoting for CONFORMANCE_ARGS. */
function splitArgs(text) {
  return [...text.matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3]);
}

const env = { ...process.env, CONFORMANCE_CWD: process.cwd() };
for (const name of [
  'CONFORMANCE_RESOLVED_URL',
  'CONFORMANCE_RESOLVED_MODE',
  'CONFORMANCE_RESOLVED_DESCRIPTION',
])
  delete env[name];
const passThrough = [];
const argv = [...splitArgs(process.env.CONFORMANCE_ARGS ?? ''), ...process.argv.slice(2)];
for (let i = 0; i < argv.length; i++) {
  const arg = argv[i];
  if (arg === '-h' || arg === '--help') {
    console.log(HELP);
    process.exit(0);
  }
  const eq = arg.indexOf('=');
  const name = arg.startsWith('--') && eq > 0 ? arg.slice(0, eq) : arg;
  if (name in OPTIONS) {
    const value = eq > 0 && name !== arg ? arg.slice(eq + 1) : argv[++i];
    if (value === undefined) {
      console.error(`${name} needs a value\n\n${HELP}`);
      process.exit(2);
    }
    env[OPTIONS[name]] = value;
  } else {
    passThrough.push(arg);
  }
}
const listing = passThrough.includes('--list');
if (!env.CONFORMANCE_BASE_URL && !env.CONFORMANCE_START_COMMAND && !listing) {
  console.error(`no target: give --base-url or --start\n\n${HELP}`);
  process.exit(2);
}

const here = path.dirname(fileURLToPath(import.meta.url));
const playwright = createRequire(import.meta.url).resolve('@playwright/test/cli');
const child = spawn(
  process.execPath,
  [playwright, 'test', '-c', path.join(here, 'playwright.config.ts'), ...passThrough],
  { cwd: here, env, stdio: 'inherit' },
);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
