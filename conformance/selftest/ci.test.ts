/**
 * The suite where implementers meet it: their CI, their terminal, their browser.
 * - The GitHub Action's steps (action.yml → ci/*.sh) run as they are, with the environment an Actions
 *   runner gives them (GITHUB_ACTIONS, GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, RUNNER_TEMP,
 *   GITHUB_ACTION_PATH), against an implementation with a MUST and a SHOULD defect: the annotations are
 *   read back from stdout, the job summary from its file, the outputs from theirs.
 * - The junit.xml of that run is valid against the JUnit schema CI tools read (junit.xsd, xmllint), with
 *   the MUST failure a <failure> and the SHOULD failure not.
 * - Its report page (index.html) in a real browser (the Debian package chromium, headless): the verdict
 *   is what shows first. The screenshot is kept (CONFORMANCE_SELFTEST_OUT, else a temporary folder).
 * - The CLI's conventions: --version, `rules --json`, the exit codes 0/1/2/3, a folder per run.
 * xmllint and chromium come from Debian packages, which `make ci-deps` installs (no test installs anything);
 * where one is missing, the test that needs it is skipped, saying what to install.
 */
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import { expect } from 'chai';
import type { Summary } from '../report/summary.ts';
import { RULES } from '../rules/index.ts';
import { EXIT } from '../support/exit-codes.mjs';
import { REPORT_ROOT } from '../support/options.mjs';
import { freePort } from '../support/target.ts';
import { tmp } from './pack.ts';
import { validateSummary } from './summary-schema.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const pkg = path.resolve(here, '..');
const CLI = path.join(pkg, 'cli.mjs');
const IMPL = path.join(here, 'impl/server.mjs');
const manifest = JSON.parse(fs.readFileSync(path.join(pkg, 'package.json'), 'utf8'));
/** An implementation with a MUST defect (USR-PUT-03) and a SHOULD defect (HTTP-01, failures answer 500). */
const TWO_DEFECTS = `exec node ${IMPL} --port {port} --data {data} --defect put-overwrites,failure-500`;
const GREP = 'USR-PUT-0[13]|HTTP-01|USR-OPEN-01';

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs a program with the environment given, over this machine's (its PATH, HOME, the registry's
 * certificates) without anything of the suite's or of a runner's that the test does not give.
 */
async function runWith(
  command: string,
  args: string[],
  env: Record<string, string>,
  cwd: string,
): Promise<Ran> {
  const base = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^(CONFORMANCE_|GITHUB_|RUNNER_)/.test(name)),
  );
  const child = spawn(command, args, {
    cwd,
    env: { ...base, FORCE_COLOR: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c) => (stdout += c));
  child.stderr.on('data', (c) => (stderr += c));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, stdout, stderr };
}

/** The name=value lines a step wrote to $GITHUB_OUTPUT, as the runner reads them. */
function outputs(file: string): Record<string, string> {
  const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
  return Object.fromEntries(
    text
      .split('\n')
      .filter((l) => l.includes('='))
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
  );
}

/** A Debian package's program, where it is on PATH; else why not and what installs it. */
function debianProgram(program: string, pkgName: string): { path?: string; why?: string } {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter).filter(Boolean)) {
    const found = path.join(dir, program);
    try {
      fs.accessSync(found, fs.constants.X_OK);
      return { path: found };
    } catch {}
  }
  return {
    why: `${program} is not installed: run \`make ci-deps\` in the repository (as root), or apt-get install ${pkgName}`,
  };
}

describe('the GitHub Action, its JUnit and its report page', function () {
  this.timeout(600_000);
  const workspace = tmp('conformance-workspace-');
  const runnerTemp = tmp('conformance-runner-temp-');
  const files = {
    output: path.join(runnerTemp, 'output'),
    summary: path.join(runnerTemp, 'step-summary.md'),
  };
  const runner = {
    GITHUB_ACTIONS: 'true',
    CI: 'true',
    RUNNER_TEMP: runnerTemp,
    GITHUB_ACTION_PATH: pkg,
    GITHUB_WORKSPACE: workspace,
    GITHUB_OUTPUT: files.output,
    GITHUB_STEP_SUMMARY: files.summary,
  };
  let run: Ran;
  let concluded: Ran;
  let reportDir: string;
  let summary: Summary;

  before(async () => {
    const action = fs.readFileSync(path.join(pkg, 'action.yml'), 'utf8');
    const steps = [...action.matchAll(/run: '"\$GITHUB_ACTION_PATH\/(ci\/[a-z]+\.sh)"'/g)].map((m) => m[1]);
    expect(steps, 'the steps of action.yml are the scripts under test').to.deep.equal([
      'ci/install.sh',
      'ci/run.sh',
      'ci/conclude.sh',
    ]);
    // Step 1, as the action runs it by default: the action's own folder, packed and installed.
    const install = await runWith(
      path.join(pkg, 'ci/install.sh'),
      [],
      { ...runner, CONFORMANCE_PACKAGE: '' },
      workspace,
    );
    expect(install.code, install.stderr).to.equal(0);
    const { cli } = outputs(files.output);
    expect(cli, 'install.sh names the CLI in $GITHUB_OUTPUT').to.match(
      /node_modules\/user-service-conformance\/cli\.mjs$/,
    );
    // Step 2, with the inputs as action.yml puts them in the environment (empty ones too).
    run = await runWith(
      path.join(pkg, 'ci/run.sh'),
      [],
      {
        ...runner,
        CONFORMANCE_CLI: cli as string,
        CONFORMANCE_START_COMMAND: TWO_DEFECTS,
        CONFORMANCE_BASE_URL: '',
        CONFORMANCE_EXPECT_FILE: '',
        CONFORMANCE_NAME: 'two defects',
        CONFORMANCE_ARGS: `--grep '${GREP}'`,
        CONFORMANCE_REPORT_DIR: 'conformance-report',
        CONFORMANCE_SPEC_URL: 'https://github.com/example/user-service/blob/v1/docs/SPEC.md',
      },
      workspace,
    );
    reportDir = path.join(workspace, 'conformance-report');
    if (!fs.existsSync(path.join(reportDir, 'summary.json')))
      throw new Error(`no summary.json:\n${run.stdout}\n${run.stderr}`);
    summary = JSON.parse(fs.readFileSync(path.join(reportDir, 'summary.json'), 'utf8'));
    validateSummary(summary);
    concluded = await runWith(
      path.join(pkg, 'ci/conclude.sh'),
      [],
      { ...runner, CONFORMANCE_EXIT_CODE: outputs(files.output)['exit-code'] ?? '' },
      workspace,
    );
  });

  after(() => {
    fs.rmSync(workspace, { recursive: true, force: true });
    fs.rmSync(runnerTemp, { recursive: true, force: true });
  });

  it('annotates by level on stdout: the MUST failure an error, the SHOULD failure a warning, titled by rule id, pointing at the spec', () => {
    const lines = run.stdout.split('\n').filter((l) => l.startsWith('::'));
    const must = lines.find((l) => l.startsWith('::error title=USR-PUT-03::'));
    expect(must, run.stdout).to.not.equal(undefined);
    expect(must).to.include('MUST rule failed');
    expect(must).to.include('https://github.com/example/user-service/blob/v1/docs/SPEC.md#A-R3.3');
    expect(must, 'one line: new lines escaped').to.match(/%0A/);
    const should = lines.find((l) => l.startsWith('::warning title=HTTP-01::'));
    expect(should, run.stdout).to.include('SHOULD rule failed');
    expect(
      lines.filter((l) => l.includes('title=HTTP-01')),
      'HTTP-01 only as a warning',
    ).to.have.length(1);
    expect(
      lines.some((l) => l.includes('title=USR-PUT-01')),
      'a passed rule is not annotated',
    ).to.equal(false);
    expect(
      lines.some((l) => l.includes('title=USR-OPEN-01')),
      'an INFO rule is not annotated',
    ).to.equal(false);
    expect(lines.at(-1)).to.match(/^::notice title=conformance verdict::two defects: does not conform/);
  });

  it('appends summary.md to the job summary, and gives the outputs; the last step fails the job with exit code 1', () => {
    const jobSummary = fs.readFileSync(files.summary, 'utf8');
    expect(jobSummary).to.equal(`${fs.readFileSync(path.join(reportDir, 'summary.md'), 'utf8')}\n`);
    expect(jobSummary).to.match(/^# Conformance report\n\n\*\*Verdict: does not conform\*\*/);
    expect(outputs(files.output)).to.include({
      'exit-code': String(EXIT.doesNotConform),
      verdict: 'does not conform',
      'report-dir': 'conformance-report',
    });
    expect(concluded.code).to.equal(EXIT.doesNotConform);
    expect(summary.rules.filter((r) => r.status === 'failed').map((r) => r.id)).to.deep.equal([
      'USR-PUT-03',
      'HTTP-01',
    ]);
  });

  it('junit.xml is valid against the JUnit schema; the MUST failure is a <failure>, the SHOULD failure is not', function () {
    const xmllint = debianProgram('xmllint', 'libxml2-utils');
    if (!xmllint.path) {
      console.log(`      skipped: ${xmllint.why}`);
      this.skip();
    }
    const junit = path.join(reportDir, 'junit.xml');
    const verdict = execFileSync(
      xmllint.path as string,
      ['--noout', '--schema', path.join(here, 'junit.xsd'), junit],
      {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    void verdict; // xmllint exits non-zero (execFileSync throws, with its message) when the file is not valid
    const xml = fs.readFileSync(junit, 'utf8');
    const testcase = (id: string) =>
      xml.match(new RegExp(`<testcase name="${id} [^]*?(?:</testcase>|/>)`))?.[0] ?? '';
    expect(testcase('USR-PUT-03')).to.include('<failure type="MUST"');
    expect(testcase('HTTP-01')).to.not.include('<failure');
    expect(testcase('HTTP-01')).to.include('<system-out>WARNING (a failed SHOULD rule');
    expect(testcase('USR-OPEN-01'))
      .to.include('<system-out>INFO (recorded, never failed)')
      .and.include('observation: ');
    expect(xml).to.match(/<testsuites [^>]*tests="4" failures="1" errors="0"/);
    // An invalid file is refused: the check can fail.
    const broken = path.join(reportDir, 'broken.xml');
    fs.writeFileSync(broken, xml.replace(/<testsuite name="[^"]*" tests="\d+"/, '<testsuite name="x"'));
    expect(() =>
      execFileSync(xmllint.path as string, ['--noout', '--schema', path.join(here, 'junit.xsd'), broken], {
        stdio: 'ignore',
      }),
    ).to.throw();
  });

  it('the report page, in headless Chromium, shows the verdict first; the SHOULD failure is a warning', async function () {
    const browser = debianProgram('chromium', 'chromium');
    if (!browser.path) {
      console.log(`      skipped: ${browser.why}`);
      this.skip();
    }
    const out = process.env.CONFORMANCE_SELFTEST_OUT || tmp('conformance-selftest-out-');
    fs.mkdirSync(out, { recursive: true });
    const shot = path.join(out, 'report-page.png');
    const instance = await chromium.launch({
      executablePath: browser.path as string,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    });
    try {
      const page = await instance.newPage({ viewport: { width: 1200, height: 800 } });
      await page.goto(`file://${path.join(reportDir, 'index.html')}`);
      const verdict = page.locator('#verdict');
      expect(await verdict.isVisible()).to.equal(true);
      expect(await verdict.locator('h1').textContent()).to.equal('Verdict: does not conform');
      const box = await verdict.boundingBox();
      expect(box && box.y + box.height < 800, 'the verdict is in the first screen').to.equal(true);
      expect(
        await page.evaluate("getComputedStyle(document.querySelector('#verdict')).backgroundColor"),
        'a red banner',
      ).to.equal('rgb(207, 34, 46)');
      expect(await page.locator('tr#HTTP-01').getAttribute('class')).to.equal('warn');
      expect(await page.locator('tr#HTTP-01 td.status').textContent()).to.include('warning');
      expect(await page.locator('tr#USR-PUT-03 .curl code').textContent()).to.match(/^curl /);
      expect(await page.locator('a[href="html/index.html"]').count(), "Playwright's report linked").to.equal(
        1,
      );
      await page.screenshot({ path: shot });
      console.log(`      screenshot: ${shot}`);
    } finally {
      await instance.close();
    }
    expect(fs.statSync(shot).size).to.be.greaterThan(10_000);
  });
});

describe('the CLI to convention', function () {
  this.timeout(300_000);
  const cwd = tmp('conformance-cli-');
  const cli = (args: string[], env: Record<string, string> = {}) =>
    runWith(process.execPath, [CLI, ...args], env, cwd);
  after(() => fs.rmSync(cwd, { recursive: true, force: true }));

  it('--version names the suite version and the spec revision; rules --json lists the catalogue', async () => {
    const version = await cli(['--version']);
    expect(version.stdout.trim()).to.equal(
      `user-service-conformance ${manifest.version} (spec revision ${manifest.specRevision})`,
    );
    const rules = JSON.parse((await cli(['rules', '--json'])).stdout);
    expect(rules.map((r: { id: string }) => r.id)).to.deep.equal(RULES.map((r) => r.id));
    expect(rules[0]).to.have.all.keys(
      'id',
      'level',
      'section',
      'title',
      'spec',
      'statements',
      'needs',
      'axes',
    );
    expect((await cli(['rules'])).stdout).to.match(/^USR-COL-01\s+MUST\s+a fresh service/);
  });

  it('exit code 2 for a usage error, before anything starts: no target, an option without its value, an unknown option beside a target (nothing written)', async () => {
    expect((await cli([])).code).to.equal(EXIT.usage);
    expect((await cli(['--start'])).code).to.equal(EXIT.usage);
    expect((await cli(['rules', '--yaml'])).code).to.equal(EXIT.usage);
    expect((await cli(['--start', 'true', '--grep'])).code).to.equal(EXIT.usage);
    const unknown = await cli(['--start', `exec node ${IMPL} --port {port} --data {data}`, '--wokers', '2']);
    expect(unknown.code, unknown.stderr).to.equal(EXIT.usage);
    expect(unknown.stderr).to.match(/^unknown option --wokers\n/);
    expect(fs.existsSync(path.join(cwd, REPORT_ROOT)), 'no report folder').to.equal(false);
  });

  it('exit code 0 for a run of chosen rules that pass (the others do not make it incomplete); a progress line for a slow rule; a folder per run, the last one linked', async () => {
    // Every PUT takes 6 s: USR-PUT-01 runs longer than the 5 s after which a rule gets a progress line.
    const slow = `exec node ${IMPL} --port {port} --data {data} --put-delay 6000`;
    const run = await cli(['--start', slow, '--grep', 'USR-PUT-01']);
    expect(run.code, run.stdout + run.stderr).to.equal(EXIT.conforms);
    const latest = path.join(cwd, REPORT_ROOT, 'latest');
    const summary = JSON.parse(fs.readFileSync(path.join(latest, 'summary.json'), 'utf8')) as Summary;
    validateSummary(summary);
    expect(summary.verdict).to.equal('conforms');
    expect(summary.counts.notSelected).to.equal(RULES.length - 1);
    expect(run.stdout).to.match(/A\.3 PUT \(create\)\s+7\s+1\s+0\s+0\s+0\s+conforms/);
    expect(run.stdout).to.match(/… USR-PUT-01 \[MUST\] [^\n]*: still running \(\d+ s\)/);
    const first = fs.readlinkSync(latest);
    // Exit code 3: nothing accepts connections at the target, told in seconds (not after the start timeout),
    // without a stack trace or a table of rules not run. Its report goes to a folder of its own, now the latest.
    const began = Date.now();
    const never = await cli(['--base-url', `http://127.0.0.1:${await freePort()}`]);
    const output = never.stdout + never.stderr;
    expect(never.code, output).to.equal(EXIT.couldNotRun);
    expect(
      Date.now() - began,
      'told after the refused connections give up, not after the 30 s start timeout',
    ).to.be.below(25_000);
    expect(output).to.match(
      /conformance: could not run: the target never answered: nothing accepts connections at/,
    );
    expect(output, 'no stack trace').to.not.match(/^\s+at /m);
    expect(output, 'no table of rules not run').to.not.match(/^Section\s+Rules/m);
    expect(never.stdout.trim().split('\n').at(-1)).to.equal('0 passed, 1 failed');
    const second = fs.readlinkSync(latest);
    expect(second).to.not.equal(first);
    expect(fs.readdirSync(path.join(cwd, REPORT_ROOT)).sort()).to.deep.equal(
      [first, second, 'latest'].sort(),
    );
    expect(JSON.parse(fs.readFileSync(path.join(latest, 'summary.json'), 'utf8')).errors.join()).to.match(
      /never answered/,
    );
    // A port fetch never connects to (9, on the Fetch standard's "bad ports"): said at once, not after 30 s.
    const badPortAt = Date.now();
    const badPort = await cli(['--base-url', 'http://127.0.0.1:9']);
    expect(badPort.code, badPort.stdout + badPort.stderr).to.equal(EXIT.couldNotRun);
    expect(Date.now() - badPortAt, 'told at once').to.be.below(15_000);
    expect(badPort.stdout + badPort.stderr).to.match(/fetch never connects to this port/);
  });
});
