/**
 * The suite as an implementer gets it and what its reports hold: the packed tarball installed in an
 * empty folder outside the repository runs against an implementation (and its summary carries the suite's
 * version and the spec revision); a failed rule carries the exchange, whose curl line replays it against
 * the same defective implementation; --reporter adds a reporter without changing the verdict, summary,
 * last line or exit code; CONFORMANCE_ARGS keeps quoted values with spaces; --expect; compare; the
 * options table agrees with README.md. Every summary is validated against summary.schema.json.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { renderJunit } from '../report/junit.ts';
import type { Summary } from '../report/summary.ts';
import { OPTIONS } from '../support/options.mjs';
import { freePort, waitUntilAnswering } from '../support/target.ts';
import { installPacked } from './pack.ts';
import { validateSummary } from './summary-schema.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const pkg = path.resolve(here, '..');
const IMPL = path.join(here, 'impl/server.mjs');
const manifest = JSON.parse(fs.readFileSync(path.join(pkg, 'package.json'), 'utf8'));

interface Run {
  code: number | null;
  summary: Summary;
  lastLine: string;
  output: string;
  reportDir: string;
}

const tmp = (prefix: string) => fs.mkdtempSync(path.join(os.tmpdir(), prefix));

/** Runs a CLI (the clone's, or an installed one) from `cwd`; the summary is validated against the schema. */
async function runCli(
  cli: string,
  args: string[],
  env: Record<string, string> = {},
  cwd = pkg,
): Promise<Run> {
  const reportDir = tmp('conformance-report-');
  const childEnv: NodeJS.ProcessEnv = { ...process.env };
  // The suite's options, and a CI's (the deliberate defects are not this repository's annotations).
  for (const name of Object.keys(childEnv)) if (/^(CONFORMANCE_|GITHUB_)/.test(name)) delete childEnv[name];
  const child = spawn(process.execPath, [cli, ...args, '--report', reportDir], {
    cwd,
    env: { ...childEnv, CONFORMANCE_REPORTERS: 'summary', FORCE_COLOR: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (c) => (output += c));
  child.stderr?.on('data', (c) => (output += c));
  const [code] = (await once(child, 'exit')) as [number | null];
  const file = path.join(reportDir, 'summary.json');
  if (!fs.existsSync(file)) throw new Error(`no summary.json; output:\n${output}`);
  const summary = JSON.parse(fs.readFileSync(file, 'utf8')) as Summary;
  validateSummary(summary);
  const lines = output.trim().split('\n');
  return { code, summary, output, lastLine: lines.at(-1) ?? '', reportDir };
}

const CLI = path.join(pkg, 'cli.mjs');
const status = (run: Run, id: string) => run.summary.rules.find((r) => r.id === id)?.status;

/** The self-test implementation with one defect, on a free port, for --base-url runs and curl replays. */
async function startImpl(defect?: string): Promise<{ url: string; child: ChildProcess; dir: string }> {
  const port = await freePort();
  const dir = tmp('conformance-impl-');
  const args = [IMPL, '--port', String(port), '--data', dir, ...(defect ? ['--defect', defect] : [])];
  const child = spawn(process.execPath, args, { stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}`;
  await waitUntilAnswering(url, 10_000);
  return { url, child, dir };
}

async function stopImpl(impl: { child: ChildProcess; dir: string }): Promise<void> {
  if (impl.child.exitCode === null) {
    impl.child.kill('SIGTERM');
    await once(impl.child, 'exit');
  }
  fs.rmSync(impl.dir, { recursive: true, force: true });
}

describe('the packed suite, installed without a clone', function () {
  this.timeout(240_000);
  let install: string;
  let impl: Awaited<ReturnType<typeof startImpl>>;
  let run: Run;

  before(async () => {
    install = installPacked();
    impl = await startImpl('put-overwrites');
    const bin = path.join(install, 'node_modules/user-service-conformance/cli.mjs');
    run = await runCli(bin, ['--base-url', impl.url, '--grep', 'USR-PUT-0[1-4]'], {}, install);
  });

  after(async () => {
    if (impl) await stopImpl(impl);
    if (install) fs.rmSync(install, { recursive: true, force: true });
  });

  it('holds JavaScript only, and its summary names the suite version and the spec revision', () => {
    const installed = path.join(install, 'node_modules/user-service-conformance');
    const files = execFileSync('find', [installed, '-name', '*.ts', '-not', '-name', '*.d.*ts'], {
      encoding: 'utf8',
    });
    expect(files.trim(), 'TypeScript sources in the installed package').to.equal('');
    expect(fs.existsSync(path.join(installed, 'summary.schema.json'))).to.equal(true);
    expect(run.summary.suite).to.deep.equal({ name: 'user-service-conformance', version: manifest.version });
    expect(run.summary.spec).to.deep.equal({ revision: manifest.specRevision });
    expect(run.code, run.output).to.equal(1);
    expect(status(run, 'USR-PUT-03')).to.equal('failed');
  });

  it("a failed rule's curl line replays its request: the same answer from the same implementation", () => {
    const rule = run.summary.rules.find((r) => r.id === 'USR-PUT-03');
    const exchange = rule?.exchange;
    expect(exchange, 'the exchange of USR-PUT-03').to.not.equal(undefined);
    if (!exchange) return;
    expect(exchange.request.method).to.equal('PUT');
    expect(exchange.curl).to.match(/^curl /);
    const replay = execFileSync('/bin/sh', ['-c', exchange.curl], { encoding: 'utf8' });
    const [head = '', body = ''] = replay.split(/\r\n\r\n/);
    expect(head.split(' ')[1], replay).to.equal(String(exchange.response.status));
    expect(body, replay).to.equal(exchange.response.body);
    const markdown = fs.readFileSync(path.join(run.reportDir, 'summary.md'), 'utf8');
    expect(markdown).to.include('<details><summary>USR-PUT-03: the exchange');
    expect(markdown).to.include(exchange.curl);
  });
});

describe('options that add, not replace', function () {
  this.timeout(180_000);
  const start = (defect: string) => `exec node ${IMPL} --port {port} --data {data} --defect ${defect}`;

  it('--reporter dot leaves the verdict, the summary, the last line and the exit code as they are', async () => {
    // failure-500 fails a SHOULD rule (HTTP-01): a warning, exit 0. Before, --reporter dropped the summary.
    const args = ['--start', start('failure-500'), '--grep', 'HTTP-01|USR-PUT-03'];
    const plain = await runCli(CLI, args, { CONFORMANCE_REPORTERS: '' });
    const dotted = await runCli(CLI, [...args, '--reporter', 'dot'], { CONFORMANCE_REPORTERS: '' });
    const shape = (r: Run) => ({
      code: r.code,
      verdict: r.summary.verdict,
      counts: r.summary.counts,
      statuses: r.summary.rules.map((x) => `${x.id} ${x.status}`),
      lastLine: r.lastLine,
    });
    expect(status(plain, 'HTTP-01'), plain.output).to.equal('failed');
    expect(shape(dotted)).to.deep.equal(shape(plain));
    expect(plain.code).to.equal(0);
    expect(fs.existsSync(path.join(dotted.reportDir, 'junit.xml')), 'the suite’s own junit.xml').to.equal(
      true,
    );
  });

  it('CONFORMANCE_ARGS keeps a quoted value with spaces in one piece', async () => {
    const run = await runCli(CLI, ['--start', start('failure-500')], {
      CONFORMANCE_ARGS: `--name='my impl, v2' --grep "USR-PUT-01"`,
    });
    expect(run.summary.name).to.equal('my impl, v2');
    expect(run.summary.rules.filter((r) => r.status !== 'not selected').map((r) => r.id)).to.deep.equal([
      'USR-PUT-01',
    ]);
  });

  it('--expect: listed failures do not fail the run; a listed rule that passes is unexpectedly passing', async () => {
    const file = path.join(tmp('conformance-expect-'), 'expect.json');
    fs.writeFileSync(
      file,
      JSON.stringify({ 'USR-PUT-03': 'overwrites on PUT (issue 12)', 'USR-PUT-01': 'thought broken' }),
    );
    const run = await runCli(
      CLI,
      ['--start', start('put-overwrites'), '--grep', 'USR-PUT-0[13]', '--expect', file],
      {
        CONFORMANCE_REPORTERS: '',
      },
    );
    expect(status(run, 'USR-PUT-03'), run.output).to.equal('expected failure');
    expect(run.summary.rules.find((r) => r.id === 'USR-PUT-03')?.expected).to.equal(
      'overwrites on PUT (issue 12)',
    );
    expect(status(run, 'USR-PUT-01')).to.equal('unexpectedly passing');
    expect(run.summary.counts).to.include({ failed: 0, expectedFailures: 1, unexpectedPasses: 1 });
    expect(run.code, run.output).to.equal(0);
    expect(run.summary.verdict, 'an expected MUST failure is still not conformance').to.equal(
      'does not conform',
    );
    const junit = fs.readFileSync(path.join(run.reportDir, 'junit.xml'), 'utf8');
    expect(junit).to.not.include('<failure');
    expect(junit).to.include('<skipped message="expected failure: overwrites on PUT (issue 12)"/>');
    // A rule that could not be set up is a JUnit error, not a failure (the JUnit of the same report data).
    const setup = renderJunit({
      ...run.summary,
      rules: run.summary.rules.map((r) =>
        r.id === 'USR-PUT-03'
          ? {
              ...r,
              status: 'could not set up',
              reason: 'could not set up: PUT answered 500',
              expected: undefined,
            }
          : r,
      ),
    });
    expect(setup).to.include('<error type="could not set up" message="could not set up: PUT answered 500">');
    expect(setup).to.match(/<testsuites [^>]*failures="0" errors="1"/);
  });

  it('compare puts two runs side by side, with a badge each', async () => {
    const a = await runCli(CLI, [
      '--start',
      start('put-overwrites'),
      '--grep',
      'USR-PUT-0[13]',
      '--name',
      'A',
    ]);
    const b = await runCli(CLI, ['--start', start('failure-500'), '--grep', 'USR-PUT-0[13]', '--name', 'B']);
    const out = tmp('conformance-compare-');
    execFileSync(process.execPath, [
      CLI,
      'compare',
      path.join(a.reportDir, 'summary.json'),
      path.join(b.reportDir, 'summary.json'),
      '--out',
      out,
    ]);
    const md = fs.readFileSync(path.join(out, 'compare.md'), 'utf8');
    expect(md).to.include('| Rule | Level | A | B |');
    expect(md).to.include('| USR-PUT-03 | MUST | ❌ failed | ✅ passed |');
    expect(fs.readFileSync(path.join(out, 'compare.html'), 'utf8')).to.include('<th>A</th>');
    const badge = JSON.parse(fs.readFileSync(path.join(out, 'badges/a.json'), 'utf8'));
    expect(badge).to.include({ schemaVersion: 1, color: 'red' });
  });

  it('package.json names the revision of docs/SPEC.md the catalogue checks', async function () {
    const specFile = process.env.CONFORMANCE_SPEC_FILE;
    if (!specFile) this.skip(); // set by make conformance-selftest (the spec is outside this package)
    const { specRevision } = await import('../tools/spec-revision.mjs');
    expect(
      manifest.specRevision,
      'docs/SPEC.md changed: run node conformance/tools/spec-revision.mjs docs/SPEC.md --write',
    ).to.equal(specRevision(fs.readFileSync(specFile as string, 'utf8')));
  });

  it('README.md names every option with the default the code uses', () => {
    const readme = fs.readFileSync(path.join(pkg, 'README.md'), 'utf8');
    for (const option of OPTIONS) {
      const row = readme
        .split('\n')
        .find((line) => line.startsWith('|') && line.includes(`\`${option.env}\``));
      expect(row, `README.md has a row for ${option.env}`).to.not.equal(undefined);
      if (option.flag) expect(row).to.include(`\`${option.flag}`);
      if (option.default) expect(row).to.include(`(default ${option.default})`);
    }
  });
});

describe('a rule that reads the shared list is not fooled by the other rules', function () {
  this.timeout(120_000);

  it('USR-HEAD-02 passes on a correct implementation while users are created and deleted meanwhile', async () => {
    // The flake behind "a correct implementation failed one MUST rule": another rule's user, created after
    // the first GET and deleted before the second, gave HEAD another Content-Length (11 of 40 runs failed).
    const impl = await startImpl();
    let churning = true;
    const churn = (async () => {
      for (let i = 0; churning; i++) {
        const id = 1_500_000_000 + (i % 100);
        const body = `id=${id}&name=conf-name-abcdefgh&profession=conf-prof-abcdefgh`;
        const headers = { 'content-type': 'application/x-www-form-urlencoded' };
        await fetch(`${impl.url}/UserService/users`, { method: 'PUT', body, headers }).then((r) => r.text());
        await fetch(`${impl.url}/UserService/users/${id}`, { method: 'DELETE' }).then((r) => r.text());
      }
    })();
    const results = path.join(tmp('conformance-json-'), 'results.json');
    try {
      await runCli(
        CLI,
        ['--base-url', impl.url, '--grep', 'USR-HEAD-02', '--repeat-each', '12', '--reporter', 'json'],
        {
          PLAYWRIGHT_JSON_OUTPUT_NAME: results,
        },
      );
    } finally {
      churning = false;
      await churn;
      await stopImpl(impl);
    }
    // Every repetition (the summary keeps the last one only), from the reporter --reporter added.
    const report = JSON.parse(fs.readFileSync(results, 'utf8'));
    const statuses: string[] = [];
    const walk = (suite: { specs?: unknown[]; suites?: unknown[] }) => {
      for (const spec of (suite.specs ?? []) as Array<{
        tests: Array<{ results: Array<{ status: string }> }>;
      }>)
        for (const test of spec.tests) for (const result of test.results) statuses.push(result.status);
      for (const child of (suite.suites ?? []) as Array<typeof suite>) walk(child);
    };
    for (const suite of report.suites) walk(suite);
    expect(statuses.length).to.equal(12);
    expect(
      statuses.filter((s) => s !== 'passed'),
      'repetitions of USR-HEAD-02 that did not pass',
    ).to.deep.equal([]);
  });
});
