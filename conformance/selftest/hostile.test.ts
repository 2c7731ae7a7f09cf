/**
 * Hostile implementations (impl/hostile/): one that never answers, one whose body never ends, one that
 * answers bytes that are not HTTP, one that closes the connection mid-answer, one that exits mid-run.
 * Each run, through the CLI as an implementer runs it, must end within its time budget, name what
 * happened in the report, and leave no process behind: neither the implementation's (their pids are
 * recorded by the implementations themselves) nor the suite's (the CLI runs in a process group of its
 * own, which must be empty once it exited). And time is never the verdict: the self-test's correct
 * implementation slowed to 20 ms per write conforms.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import type { RuleOutcome, Summary } from '../report/summary.ts';
import { RULES } from '../rules/index.ts';
import { groupMembers } from '../support/process.ts';
import { caseOf } from './ahead.ts';
import { BRIEF_EXPLORER, suiteEnv } from './suite-env.ts';
import { validateSummary } from './summary-schema.ts';
import { inTier } from './tier.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const pkg = path.resolve(here, '..');
const CLI = path.join(pkg, 'cli.mjs');
const IMPL = path.join(here, 'impl/server.mjs');
const hostile = (name: string) => `exec node ${path.join(here, 'impl/hostile', `${name}.mjs`)} --port {port}`;

interface Run {
  code: number | null;
  summary: Summary;
  output: string;
  seconds: number;
  /** Pids the implementations recorded. */
  pids: number[];
  /** Of those, the ones still running once the CLI exited (killed then). */
  outlived: number[];
  /** Processes of the CLI's group still running after it exited. */
  leftInGroup: string[];
}

/** A pid that still runs (a zombie does not: it only waits to be reaped). */
function running(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

/** Runs the CLI in a process group of its own; past `budgetMs` the group is killed and the case fails. */
async function runSuite(env: Record<string, string>, budgetMs: number, args: string[] = []): Promise<Run> {
  const reportDir = fs.mkdtempSync(path.join(os.tmpdir(), 'conformance-hostile-'));
  const pidFile = path.join(reportDir, 'pids');
  const started = Date.now();
  const child = spawn(process.execPath, [CLI, ...args], {
    cwd: pkg,
    detached: true,
    env: suiteEnv(reportDir, { HOSTILE_PID_FILE: pidFile, ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (c) => (output += c));
  child.stderr.on('data', (c) => (output += c));
  let overBudget = false;
  const timer = setTimeout(() => {
    overBudget = true;
    process.kill(-(child.pid as number), 'SIGKILL');
  }, budgetMs);
  const [code] = (await once(child, 'exit')) as [number | null];
  clearTimeout(timer);
  const seconds = (Date.now() - started) / 1000;
  // The group's processes that outlive the CLI: give them the time a normal exit takes.
  let left = groupMembers(child.pid as number);
  for (let i = 0; i < 20 && left.length; i++) {
    await new Promise((r) => setTimeout(r, 100));
    left = groupMembers(child.pid as number);
  }
  if (left.length) process.kill(-(child.pid as number), 'SIGKILL');
  const pids = fs.existsSync(pidFile)
    ? fs.readFileSync(pidFile, 'utf8').split('\n').filter(Boolean).map(Number)
    : [];
  // The implementations run in process groups of their own: whatever the case says of them, none outlives it.
  const outlived = pids.filter(running);
  for (const pid of outlived) process.kill(pid, 'SIGKILL');
  if (overBudget)
    throw new Error(`the run did not end within its budget of ${budgetMs / 1000} s:\n${output}`);
  const summaryFile = path.join(reportDir, 'summary.json');
  if (!fs.existsSync(summaryFile)) throw new Error(`no summary.json; output:\n${output}`);
  const summary = JSON.parse(fs.readFileSync(summaryFile, 'utf8')) as Summary;
  validateSummary(summary);
  fs.rmSync(reportDir, { recursive: true, force: true });
  return {
    code,
    summary,
    output,
    seconds,
    pids,
    outlived,
    leftInGroup: left.map((m) => `${m.pid} (${m.name})`),
  };
}

const reasons = (rules: RuleOutcome[]) =>
  rules.map((r) => `${r.id} ${r.status}: ${r.reason ?? ''}`).join('\n');
const seen: string[] = [];

interface HostileCase {
  name: string;
  /** What the report must say, in a run error or in the rules' reasons. */
  names: RegExp;
  /** The status of the rules that met it. */
  status: 'failed' | 'could not finish';
  /** Whether it is a run error too (the implementation as a whole stopped). */
  runError: boolean;
}

const CASES: HostileCase[] = [
  { name: 'never-answers', names: /no answer within 15 s/, status: 'could not finish', runError: true },
  { name: 'endless-body', names: /body did not end/, status: 'could not finish', runError: true },
  { name: 'not-http', names: /not HTTP/, status: 'failed', runError: false },
  { name: 'closes-mid-answer', names: /connection closed mid-answer/, status: 'failed', runError: false },
  {
    name: 'exits-mid-run',
    names: /the implementation exited \(code 3\) during the run/,
    status: 'could not finish',
    runError: true,
  },
];
/**
 * The run's budget: a stall must cost one request's 15 s, not one per rule (82 rules × 15 s with the one
 * worker ≈ 20 min). The runs take 1.5-2.5 min on two busy cores, about twice that when the machine is
 * shared, and up to 7 min (endless-body: 430 s) at a load of 15 with other suites beside them, as when the
 * self-test's cases run ahead of their turn: 15 min still tells one stall from one per rule.
 */
const BUDGET_MS = 900_000;

/**
 * The rules a hostile run selects: the first two of each spec file, so that every file's set-up (shared
 * target, fresh instances, restarts, section B, the explorer) meets the hostile answers: 37 rules, not
 * all 85 (with all of them each run took 390-490 s, five at once; with these 130-250 s, and exits-mid-run
 * still exits mid-run). What a rule does with a stalled or broken answer is the transport's
 * (support/http.ts, explore/client.ts), the same in every rule of a file.
 */
const PER_FILE = 2;
const HOSTILE_RULES = RULES.filter(
  (rule, i) => RULES.slice(0, i).filter((r) => r.file === rule.file).length < PER_FILE,
).map((r) => r.id);
const HOSTILE_GREP = ['--grep', `(${HOSTILE_RULES.join('|')}) `];

describe('hostile implementations: a clear report in bounded time, no process left behind', function () {
  this.timeout(BUDGET_MS + 60_000);
  after(() => {
    if (seen.length) console.log(`\n  Hostile:\n${seen.map((l) => `    ${l}`).join('\n')}`);
  });

  // Each takes 3 to 7 minutes of waiting on its implementation: in the rest tier (make test-all), all at once.
  for (const c of CASES.filter(() => inTier(false))) {
    caseOf(
      `${c.name}: named (${c.names.source}), within ${BUDGET_MS / 1000} s, no process left`,
      () => runSuite({ CONFORMANCE_START_COMMAND: hostile(c.name) }, BUDGET_MS, HOSTILE_GREP),
      (run) => {
        const met = run.summary.rules.filter((r) => c.names.test(r.reason ?? ''));
        expect(met.length, `rules naming it\n${reasons(run.summary.rules)}\n${run.output}`).to.be.greaterThan(
          0,
        );
        for (const r of met) expect(r.status, `${r.id}: ${r.reason}`).to.equal(c.status);
        if (c.runError) expect(run.summary.errors.join('\n'), run.output).to.match(c.names);
        // Time, or the exit, is never a failure: the rules that could not check are not failed.
        if (c.status === 'could not finish')
          expect(
            run.summary.rules.filter((r) => r.status === 'failed').map((r) => `${r.id}: ${r.reason}`),
          ).to.deep.equal([]);
        expect(run.summary.verdict).to.equal('does not conform');
        expect(run.code, 'the exit code').to.not.equal(0);
        expect(run.pids.length, 'the implementation recorded its pid').to.be.greaterThan(0);
        expect(run.outlived, 'implementation processes still running after the run').to.deep.equal([]);
        expect(run.leftInGroup, "the suite's own processes still running").to.deep.equal([]);
        const first = met[0] as RuleOutcome;
        seen.push(
          `${c.name}: ${run.seconds.toFixed(1)} s, ${run.pids.length} instance(s) started and gone; ` +
            `${JSON.stringify(run.summary.counts)}; errors: ${JSON.stringify(run.summary.errors)}; ` +
            `e.g. ${first.id} ${first.status}: ${first.reason?.split('\n')[0]}`,
        );
      },
      BUDGET_MS + 60_000,
      // They wait on a stalled or closed socket: they start at once, beside the runs that use the CPU.
      true,
    );
  }

  if (inTier(true))
    it('a run ended by SIGTERM to its whole process group leaves no instance behind', async () => {
      const pidFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'conformance-sigterm-')), 'pids');
      // The shell's pid is the implementation's once it execs: every instance started records its own.
      const start = `echo $$ >> ${pidFile}; exec node ${path.join(here, 'impl/server.mjs')} --port {port} --data {data}`;
      const child = spawn(process.execPath, [CLI], {
        cwd: pkg,
        detached: true,
        env: suiteEnv(path.dirname(pidFile), { CONFORMANCE_START_COMMAND: start }),
        stdio: 'ignore',
      });
      const pids = () =>
        fs.existsSync(pidFile)
          ? fs.readFileSync(pidFile, 'utf8').split('\n').filter(Boolean).map(Number)
          : [];
      // Rules under way: the shared instance and, past the first rules, a fresh one or more.
      for (let i = 0; i < 600 && pids().length < 2; i++) await new Promise((r) => setTimeout(r, 100));
      expect(pids().length, 'instances started').to.be.greaterThan(1);
      process.kill(-(child.pid as number), 'SIGTERM');
      await once(child, 'exit');
      let left = pids().filter(running);
      // Playwright's workers end with the runner and kill their instances as they exit, some 100-200 ms
      // later; on a loaded machine they get up to 10 s. (An instance that outlived the run in CI was not
      // slow: the runner had died of the CLI's second SIGTERM before killing it, see support/target.ts.)
      for (let i = 0; i < 100 && left.length; i++) {
        await new Promise((r) => setTimeout(r, 100));
        left = pids().filter(running);
      }
      for (const pid of left) process.kill(pid, 'SIGKILL');
      expect(left, 'instances still running after the run was ended').to.deep.equal([]);
    });

  if (inTier(false))
    caseOf(
      'a rule that Playwright times out could not finish, and says how far it got',
      // The worker is never removed, and the rule would wait 30 s for it: 5 s are all it gets.
      () =>
        runSuite(
          {
            CONFORMANCE_START_COMMAND: `exec node ${IMPL} --port {port} --defect worker-never-removed`,
            CONFORMANCE_ASYNC_TIMEOUT_MS: '30000',
          },
          BUDGET_MS,
          ['--grep', 'APP-WRK-04', '--timeout', '5000'],
        ),
      (run) => {
        const rule = run.summary.rules.find((r) => r.id === 'APP-WRK-04');
        expect(rule?.status, run.output).to.equal('could not finish');
        expect(rule?.reason, rule?.reason).to.match(
          // How far it got: the count, then the last answer or the request still waiting (which one depends on
          // the machine's load: the create may still be under way when the 5 s end, or, on a machine busy
          // enough that its instance took the 5 s to start, no request sent yet).
          /^could not finish within the rule's 5 s \(--timeout MS gives more\): (\d+ requests? answered(, the last: [A-Z]+ \S+ → \d{3}|; waiting for the answer to [A-Z]+ \S+ since \S+)?|no request sent yet)$/,
        );
        expect(run.summary.counts.notFinished).to.equal(1);
        expect(run.summary.counts.failed).to.equal(0);
        seen.push(`Playwright timeout: APP-WRK-04 ${rule?.status}: ${rule?.reason}`);
      },
      BUDGET_MS + 60_000,
    );

  if (inTier(false))
    caseOf(
      'a correct implementation that takes 20 ms per write conforms',
      () =>
        runSuite(
          // The explorer 5 s a rule: what this case shows is that slow writes are never a verdict.
          {
            CONFORMANCE_START_COMMAND: `exec node ${IMPL} --port {port} --data {data} --write-delay 20`,
            ...BRIEF_EXPLORER,
          },
          600_000,
        ),
      (run) => {
        const notPassed = run.summary.rules.filter((r) => r.status !== 'passed');
        expect(reasons(notPassed), run.output).to.equal('');
        expect(run.summary.verdict).to.equal('conforms');
        expect(run.code).to.equal(0);
        expect(run.leftInGroup).to.deep.equal([]);
        seen.push(
          `20 ms per write: ${run.summary.verdict}, ${RULES.length} rules passed in ${run.seconds.toFixed(1)} s`,
        );
      },
    );
});
