#!/usr/bin/env node
// The suite's command line: turns its options (support/options.mjs) into the environment the Playwright
// config reads, runs `playwright test` on this package's tests, and exits with its status. The last line
// of the output is `N passed, N failed` (rules passed, MUST rules failed); the exit code is non-zero if and
// only if a MUST rule failed (and was not expected to: --expect) or the target never answered.
// `user-service-conformance compare SUMMARY.json… --out DIR` puts several runs side by side (tools/compare).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
// A clone runs the TypeScript sources as they are; an installed package runs the JavaScript that
// `npm pack` compiled into dist/ (Node does not strip types under node_modules).
const fromSource = fs.existsSync(path.join(here, 'playwright.config.ts'));
const suiteFile = (name) =>
  fromSource
    ? path.join(here, `${name}${name.endsWith('.mjs') ? '' : '.ts'}`)
    : path.join(here, 'dist', `${name.replace(/\.mjs$/, '')}${name.endsWith('.mjs') ? '.mjs' : '.js'}`);
const { OPTIONS, splitArgs } = await import(pathToFileURL(suiteFile('support/options.mjs')).href);

const column = (o) => (o.flag ? `${o.flag} ${o.value}` : o.env);
const line = (o) =>
  `  ${column(o).padEnd(30)} ${o.help}${o.default ? ` (default ${o.default})` : ''}${o.flag ? `; env ${o.env}` : ''}`;
const HELP = `usage: user-service-conformance [--base-url URL] [--start COMMAND] [options] [playwright options]
       user-service-conformance compare SUMMARY.json... --out DIR

Target (one or both; --start is needed for the rules about a fresh service and a restart):
${OPTIONS.filter((o) => o.flag)
  .map(line)
  .join('\n')}
  -h, --help                     this text
Any other option goes to \`playwright test\` (--workers 1, --list, --grep PATTERN, ...).

Environment only:
${OPTIONS.filter((o) => !o.flag)
  .map(line)
  .join('\n')}`;

if (process.argv[2] === 'compare') {
  const child = spawn(process.execPath, [suiteFile('tools/compare'), ...process.argv.slice(3)], {
    stdio: 'inherit',
  });
  child.on('exit', (code) => process.exit(code ?? 1));
} else {
  run();
}

function run() {
  const env = { ...process.env, CONFORMANCE_CWD: process.cwd() };
  for (const name of [
    'CONFORMANCE_RESOLVED_URL',
    'CONFORMANCE_RESOLVED_MODE',
    'CONFORMANCE_RESOLVED_DESCRIPTION',
  ])
    delete env[name];
  const passThrough = [];
  const reporters = [];
  let argv;
  try {
    argv = [...splitArgs(process.env.CONFORMANCE_ARGS ?? ''), ...process.argv.slice(2)];
  } catch (err) {
    console.error(err.message);
    process.exit(2);
  }
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '-h' || arg === '--help') {
      console.log(HELP);
      process.exit(0);
    }
    const eq = arg.indexOf('=');
    const name = arg.startsWith('--') && eq > 0 ? arg.slice(0, eq) : arg;
    const option = OPTIONS.find((o) => o.flag === name);
    if (!option) {
      passThrough.push(arg);
      continue;
    }
    const value = eq > 0 && name !== arg ? arg.slice(eq + 1) : argv[++i];
    if (value === undefined) {
      console.error(`${name} needs a value\n\n${HELP}`);
      process.exit(2);
    }
    // Reporters add to the suite's own: Playwright's --reporter would replace them.
    if (option.env === 'CONFORMANCE_EXTRA_REPORTERS') reporters.push(value);
    else env[option.env] = value;
  }
  if (reporters.length)
    env.CONFORMANCE_EXTRA_REPORTERS = [env.CONFORMANCE_EXTRA_REPORTERS, ...reporters]
      .filter(Boolean)
      .join(',');
  const listing = passThrough.includes('--list');
  if (!env.CONFORMANCE_BASE_URL && !env.CONFORMANCE_START_COMMAND && !listing) {
    console.error(`no target: give --base-url or --start\n\n${HELP}`);
    process.exit(2);
  }
  const playwright = createRequire(import.meta.url).resolve('@playwright/test/cli');
  const child = spawn(
    process.execPath,
    [playwright, 'test', '-c', suiteFile('playwright.config'), ...passThrough],
    {
      cwd: here,
      env,
      stdio: 'inherit',
    },
  );
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}
