#!/usr/bin/env node
// The suite's command line: turns its options (support/options.mjs) into the environment the Playwright
// config reads, runs `playwright test` on this package's tests, and exits with the code of the verdict
// (support/exit-codes.mjs): 0 conforms, 1 does not conform (a MUST rule failed that --expect does not
// list), 2 usage error, 3 could not run (the target never answered, or the run broke). The last line of
// the output is `N passed, N failed` (rules passed, MUST rules failed). Each run reports into a folder
// of its own under reports/conformance/ (the last one linked as reports/conformance/latest), or --out DIR.
//   user-service-conformance compare SUMMARY.json… --out DIR   several runs side by side (tools/compare)
//   user-service-conformance rules [--json]                     the rule catalogue (tools/rules)
//   user-service-conformance --version                          the suite's version and spec revision
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
const { OPTIONS, PLAYWRIGHT_OPTIONS, REPORT_ROOT, splitArgs } = await import(
  pathToFileURL(suiteFile('support/options.mjs')).href
);
const { EXIT, exitCodeOf } = await import(pathToFileURL(suiteFile('support/exit-codes.mjs')).href);
const { newRunFolder, linkLatest } = await import(pathToFileURL(suiteFile('support/run-folder.mjs')).href);
const manifest = JSON.parse(fs.readFileSync(path.join(here, 'package.json'), 'utf8'));

const column = (o) => (o.flag ? `${o.flag} ${o.value}` : o.env);
const line = (o) =>
  `  ${column(o).padEnd(30)} ${o.help}${o.default ? ` (default ${o.default})` : ''}${o.flag ? `; env ${o.env}` : ''}${o.aliases ? `; also ${o.aliases.join(', ')}` : ''}`;
const HELP = `usage: user-service-conformance [--base-url URL] [--start COMMAND] [options] [playwright options]
       user-service-conformance rules [--json]
       user-service-conformance compare SUMMARY.json... --out DIR
       user-service-conformance --version
       user-service-conformance explore --start COMMAND | --base-url URL [--seed N] [--time 60s] [--clients 8]

Target (one or both; --start is needed for the rules about a fresh service and a restart):
${OPTIONS.filter((o) => o.flag)
  .map(line)
  .join('\n')}
  -h, --help                     this text
  --version                      the suite's version and the revision of the spec it checks
Options of \`playwright test\` it takes too: ${PLAYWRIGHT_OPTIONS.withValue.map((o) => `${o} V`).join(', ')},
${PLAYWRIGHT_OPTIONS.alone.join(', ')}; and test files to run (tests/*.spec.ts names). Any other option is a usage error.

Exit codes: ${EXIT.conforms} conforms (no MUST rule failed but those --expect lists), ${EXIT.doesNotConform} does not conform,
${EXIT.usage} usage error, ${EXIT.couldNotRun} could not run (the target never answered, or the run broke before every rule ran).

Environment only:
${OPTIONS.filter((o) => !o.flag)
  .map(line)
  .join('\n')}`;

// `explore`: the explorer alone, without the hand-written rules (explore/main).
const SUBCOMMANDS = { compare: 'tools/compare', rules: 'tools/rules', explore: 'explore/main' };
const subcommand = Object.hasOwn(SUBCOMMANDS, process.argv[2] ?? '')
  ? SUBCOMMANDS[process.argv[2]]
  : undefined;
if (subcommand) {
  const child = spawn(process.execPath, [suiteFile(subcommand), ...process.argv.slice(3)], {
    stdio: 'inherit',
  });
  child.on('exit', (code) => process.exit(code ?? 1));
} else if (process.argv[2] === '--version') {
  console.log(`${manifest.name} ${manifest.version} (spec revision ${manifest.specRevision})`);
} else {
  run();
}

function usage(message) {
  console.error(`${message}\n\n${HELP}`);
  process.exit(EXIT.usage);
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
    usage(err.message);
  }
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '-h' || arg === '--help') {
      console.log(HELP);
      process.exit(EXIT.conforms);
    }
    const eq = arg.indexOf('=');
    const name = arg.startsWith('--') && eq > 0 ? arg.slice(0, eq) : arg;
    const option = OPTIONS.find((o) => o.flag === name || o.aliases?.includes(name));
    if (!option) {
      if (!arg.startsWith('-') || PLAYWRIGHT_OPTIONS.alone.includes(arg)) passThrough.push(arg);
      else if (PLAYWRIGHT_OPTIONS.withValue.includes(name)) {
        if (name === arg && argv[i + 1] === undefined) usage(`${name} needs a value`);
        passThrough.push(arg, ...(name === arg ? [argv[++i]] : []));
      } else usage(`unknown option ${name}`);
      continue;
    }
    const value = eq > 0 && name !== arg ? arg.slice(eq + 1) : argv[++i];
    if (value === undefined) usage(`${name} needs a value`);
    // Reporters add to the suite's own: Playwright's --reporter would replace them.
    if (option.env === 'CONFORMANCE_EXTRA_REPORTERS') reporters.push(value);
    else env[option.env] = value;
  }
  if (reporters.length)
    env.CONFORMANCE_EXTRA_REPORTERS = [env.CONFORMANCE_EXTRA_REPORTERS, ...reporters]
      .filter(Boolean)
      .join(',');
  const listing = passThrough.includes('--list');
  if (!env.CONFORMANCE_BASE_URL && !env.CONFORMANCE_START_COMMAND && !listing)
    usage('no target: give --base-url or --start');
  if (listing) env.CONFORMANCE_LIST_ONLY = '1';
  else delete env.CONFORMANCE_LIST_ONLY;
  const ownFolder = !env.CONFORMANCE_REPORT_DIR && !listing;
  if (ownFolder) env.CONFORMANCE_REPORT_DIR = newRunFolder(process.cwd());
  const reportDir = path.resolve(process.cwd(), env.CONFORMANCE_REPORT_DIR ?? REPORT_ROOT);
  // The exit code is read from this run's summary.json: none may be left from an earlier run.
  fs.rmSync(path.join(reportDir, 'summary.json'), { force: true });
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
  child.on('exit', (code, signal) => {
    if (listing) process.exit(code ?? (signal ? 1 : 0));
    const file = path.join(reportDir, 'summary.json');
    const summary = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : undefined;
    if (ownFolder) linkLatest(reportDir);
    if (!summary)
      console.error(
        `conformance: could not run: no report was written (playwright exited ${code ?? signal})`,
      );
    process.exit(exitCodeOf(summary));
  });
}
