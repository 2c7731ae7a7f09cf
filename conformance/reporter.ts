/**
 * Collects the run into the report data of report/summary.ts, which judges it: one entry per catalogue
 * rule (passed, failed, skipped, not selected, could not set up, expected failure or unexpectedly passing,
 * with the reason, the exchange that decided a failure, and the spec statements it checks), written as
 * summary.json (its schema: summary.schema.json), and rendered by report/ into summary.md, junit.xml (by level) and index.html in
 * the report folder, plus an optional counts file for a CI tally. A failed SHOULD is a warning, and so
 * is a stop that needed SIGKILL: the run's status is overridden to "passed" unless a MUST rule failed
 * that --expect does not list, or the run broke (the target never answered). While the run goes, a rule
 * running longer than a few seconds gets a progress line; at the end, a verdict table per section, then
 * the last line of the run: `N passed, N failed`. Under GitHub Actions (GITHUB_ACTIONS=true) it also
 * prints the annotations (report/github.ts) and appends summary.md to $GITHUB_STEP_SUMMARY.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FullResult, Reporter, Suite, TestCase, TestError, TestResult } from '@playwright/test/reporter';
import { timelineFile } from './report/defects.ts';
import { workflowCommands } from './report/github.ts';
import { renderHtml } from './report/html.ts';
import { renderJunit } from './report/junit.ts';
import { renderMarkdown } from './report/markdown.ts';
import {
  countsOf,
  evidenceIn,
  expectationsOf,
  metMust,
  type RuleOutcome,
  type Summary,
  signaturesIn,
  verdictOf,
  warnedIn,
  withDefects,
  withExpectation,
} from './report/summary.ts';
import { renderVerdictTable, ruleLine } from './report/terminal.ts';
import { RULES, statusOf } from './rules/index.ts';
import type { Exchange } from './support/exchange.ts';

interface Options {
  outputDir?: string;
  countsFile?: string;
  specUrl?: string;
  /** A JSON file {"RULE-ID": "reason", ...}: the rules known to fail (--expect). */
  expectFile?: string;
  name?: string;
  /** Where Playwright's own HTML report goes (linked from index.html), relative to outputDir. */
  playwrightReport?: string;
}

/** This package's manifest: the suite's name, version and the spec revision it checks. */
function manifest(): { name: string; version: string; specRevision: string } {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const file = path.join(dir, 'package.json');
    if (fs.existsSync(file)) {
      const data = JSON.parse(fs.readFileSync(file, 'utf8'));
      if (data.name === 'user-service-conformance') return data;
    }
    const up = path.dirname(dir);
    if (up === dir) return { name: 'user-service-conformance', version: 'unknown', specRevision: 'unknown' };
    dir = up;
  }
}

const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');
const clean = (text: string) => text.replace(ANSI, '').trim();

function firstLines(text: string, lines = 6): string {
  return clean(text)
    .split('\n')
    .filter((l) => l.trim() !== '')
    .slice(0, lines)
    .join('\n');
}

export default class ConformanceReporter implements Reporter {
  private suite: Suite | undefined;
  private readonly results = new Map<string, { test: TestCase; result: TestResult }>();
  private readonly errors: string[] = [];
  private lastLine = '';
  private readonly outputDir: string;
  private readonly countsFile: string | undefined;
  private readonly specUrl: string | undefined;
  private readonly name: string | undefined;
  private readonly playwrightReport: string | undefined;
  /** The rule ids this run selected (every test Playwright was given after --grep). */
  private readonly selected = new Set<string>();
  /** Rules running now, with when they began and when their last progress line was printed. */
  private readonly running = new Map<string, { title: string; began: number; told: number }>();
  private progressTimer: NodeJS.Timeout | undefined;
  private summary: Summary | undefined;
  private nothingRan = false;
  private readonly expectations: Map<string, string>;

  constructor(options: Options = {}) {
    this.outputDir = path.resolve(options.outputDir ?? 'reports/conformance');
    this.countsFile = options.countsFile ? path.resolve(options.countsFile) : undefined;
    this.specUrl = options.specUrl;
    this.name = options.name;
    this.playwrightReport = options.playwrightReport;
    this.expectations = new Map();
    if (options.expectFile) {
      try {
        const file = options.expectFile;
        this.expectations = expectationsOf(JSON.parse(fs.readFileSync(file, 'utf8')), file);
      } catch (err) {
        this.errors.push(`--expect: ${(err as Error).message}`);
      }
    }
  }

  printsToStdio(): boolean {
    return true;
  }

  onBegin(_config: unknown, suite: Suite): void {
    this.suite = suite;
    for (const test of suite.allTests()) {
      const id = ruleOf(test);
      if (id) this.selected.add(id);
    }
    this.progressTimer = setInterval(() => this.progress(), 1000);
    this.progressTimer.unref();
  }

  onTestBegin(test: TestCase): void {
    const id = ruleOf(test);
    if (id) this.running.set(id, { title: test.title, began: Date.now(), told: 0 });
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    const id = ruleOf(test);
    const rule = RULES.find((r) => r.id === id);
    if (!id || !rule) return;
    this.results.set(id, { test, result });
    this.running.delete(id);
    // The suite's own line per rule, by the suite's statuses (Playwright's list would count its tests).
    console.log(ruleLine(this.outcome(rule), result.duration));
  }

  /** A line for every rule running longer than PROGRESS_AFTER_MS, then one every PROGRESS_EVERY_MS. */
  private progress(): void {
    const now = Date.now();
    for (const [, rule] of this.running) {
      const ran = now - rule.began;
      if (ran < PROGRESS_AFTER_MS || now - rule.told < PROGRESS_EVERY_MS) continue;
      rule.told = now;
      console.log(`  … ${rule.title}: still running (${Math.round(ran / 1000)} s)`);
    }
  }

  onError(error: TestError): void {
    this.errors.push(firstLines(error.message ?? error.value ?? String(error), 8));
  }

  /** The outcome, then what --expect says of it. */
  private outcome(rule: (typeof RULES)[number]): RuleOutcome {
    return withExpectation(this.observed(rule), this.expectations.get(rule.id));
  }

  private observed(rule: (typeof RULES)[number]): RuleOutcome {
    const base = {
      id: rule.id,
      level: rule.level,
      section: rule.section,
      title: rule.title,
      spec: rule.spec,
      statements: rule.statements,
    };
    const entry = this.results.get(rule.id);
    // Known once Playwright has the selected tests (onBegin); a run that broke before has no selection.
    if (!entry && this.selected.size && !this.selected.has(rule.id))
      return { ...base, status: 'not selected', reason: 'not selected by --grep' };
    if (!entry) {
      const reason = this.errors.length
        ? `not run: ${this.errors[0]?.split('\n')[0]}`
        : 'not run (not selected by --grep, or the run stopped early)';
      return { ...base, status: 'skipped', reason };
    }
    const { result, test } = entry;
    const annotations = [...test.annotations, ...result.annotations];
    const observations = [
      ...new Set(annotations.filter((a) => a.type === 'observation').map((a) => a.description ?? '')),
    ];
    const warnings = [
      ...new Set(annotations.filter((a) => a.type === 'warning').map((a) => a.description ?? '')),
    ];
    const signatures = signaturesIn(annotations, rule.level);
    const warned = warnedIn(annotations, rule.level);
    const evidence = evidenceIn(annotations);
    const withObs = {
      ...(observations.length ? { observations } : {}),
      ...(warnings.length ? { warnings } : {}),
      ...(signatures.length ? { signatures } : {}),
      ...(warned.length ? { warned } : {}),
      ...(evidence.length ? { evidence } : {}),
    };
    if (result.status === 'skipped') {
      const reason = annotations.find((a) => a.type === 'skip')?.description || 'skipped';
      // Could not check: the defect of the lying reader it could only be judged through (withDefects numbers it).
      const blocked = signaturesIn(
        annotations.filter((a) => a.type === 'blocked-by').map((a) => ({ ...a, type: 'signature' })),
        rule.level,
      );
      if (blocked.length) return { ...base, status: 'skipped', reason, ...withObs, signatures: blocked };
      return { ...base, status: 'skipped', reason, ...withObs };
    }
    if (result.status === 'passed') return { ...base, status: 'passed', ...withObs };
    // Time, or the implementation's exit, decided it: not checked, whatever the level (support/rule.ts).
    const unfinished = annotations.find((a) => a.type === 'unfinished')?.description;
    const progress = annotations.find((a) => a.type === 'progress')?.description;
    if (unfinished || result.status === 'timedOut')
      return {
        ...base,
        status: 'could not finish',
        reason:
          unfinished ??
          `could not finish within the rule's ${test.timeout / 1000} s (--timeout MS gives more): ${progress ?? 'no request sent yet'}`,
        ...withObs,
      };
    const message = result.errors.map((e) => e.message ?? e.value ?? '').join('\n') || result.status;
    const reason = firstLines(message);
    if (statusOf(rule.level, 'failed') === 'info')
      return {
        ...base,
        ...withObs,
        status: 'passed',
        observations: [...observations, `could not observe: ${reason}`],
      };
    const attachment = result.attachments.find((a) => a.name === 'exchange' && a.body);
    const exchange = attachment?.body
      ? (JSON.parse(attachment.body.toString('utf8')) as Exchange)
      : undefined;
    const withExchange = exchange ? { exchange } : {};
    const setup = annotations.find((a) => a.type === 'setup-error');
    if (setup)
      return {
        ...base,
        status: 'could not set up',
        reason: setup.description ?? 'could not set up',
        ...withObs,
        ...withExchange,
      };
    // A SHOULD rule that met a MUST defect fails the run with it, as a MUST rule would (HTTP-04: a form
    // stored without a field, then served without that element, RES-USER-1).
    const level = rule.level === 'SHOULD' && metMust(annotations) ? 'MUST' : rule.level;
    return { ...base, level, status: 'failed', reason, ...withObs, ...withExchange };
  }

  async onEnd(result: FullResult): Promise<{ status: FullResult['status'] }> {
    clearInterval(this.progressTimer);
    if (result.status === 'interrupted') this.errors.push('the run was interrupted before every rule ran');
    if (result.status === 'timedout')
      this.errors.push('the run timed out (--global-timeout) before every rule ran');
    const unrun = [...this.selected].filter((id) => !this.results.has(id));
    if (!this.errors.length && unrun.length)
      this.errors.push(
        `${unrun.length} selected rule(s) did not run: ${unrun.slice(0, 5).join(', ')}${unrun.length > 5 ? ', …' : ''}`,
      );
    const { defects, rules } = withDefects(RULES.map((rule) => this.outcome(rule)));
    const counts = countsOf(rules);
    // The implementation exited or stopped answering during the run (support/global-setup.ts): the run broke.
    for (const what of [process.env.CONFORMANCE_TARGET_EXITED, process.env.CONFORMANCE_TARGET_STALLED])
      if (what && !this.errors.includes(what)) this.errors.push(what);
    const broken = this.errors.length > 0 || result.status === 'interrupted' || result.status === 'timedout';
    const { name: suiteName, version, specRevision } = manifest();
    const target =
      process.env.CONFORMANCE_RESOLVED_DESCRIPTION ||
      process.env.CONFORMANCE_BASE_URL ||
      'unresolved (the target never answered)';
    const verdict = verdictOf(rules, broken);
    const summary: Summary = {
      suite: { name: suiteName, version },
      spec: { revision: specRevision },
      name: this.name || target,
      target,
      verdict,
      generatedAt: new Date().toISOString(),
      counts,
      ...(this.specUrl ? { specUrl: this.specUrl } : {}),
      errors: this.errors,
      defects,
      rules,
    };
    fs.mkdirSync(this.outputDir, { recursive: true });
    fs.writeFileSync(path.join(this.outputDir, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`);
    fs.writeFileSync(path.join(this.outputDir, 'summary.md'), renderMarkdown(summary));
    // A race's timeline beside summary.md, which shows it as a picture (index.html carries it inline).
    for (const d of summary.defects)
      if (d.evidence?.svg) fs.writeFileSync(path.join(this.outputDir, timelineFile(d.id)), d.evidence.svg);
    fs.writeFileSync(path.join(this.outputDir, 'junit.xml'), renderJunit(summary));
    fs.writeFileSync(
      path.join(this.outputDir, 'index.html'),
      renderHtml(summary, { playwrightReport: this.playwrightReport }),
    );
    this.summary = summary;
    const failedForCi = counts.failed + (broken ? 1 : 0);
    if (this.countsFile) {
      fs.mkdirSync(path.dirname(this.countsFile), { recursive: true });
      fs.writeFileSync(
        this.countsFile,
        JSON.stringify({
          passed: counts.passed,
          failed: failedForCi,
          skipped: counts.skipped,
          warnings: counts.warnings,
        }),
      );
    }
    const notes = [
      counts.warnings ? `${counts.warnings} warning(s)` : '',
      counts.notSetUp ? `${counts.notSetUp} could not set up` : '',
      counts.notFinished ? `${counts.notFinished} could not finish` : '',
      counts.expectedFailures ? `${counts.expectedFailures} expected failure(s)` : '',
      counts.unexpectedPasses ? `${counts.unexpectedPasses} unexpectedly passing` : '',
      counts.skipped ? `${counts.skipped} skipped` : '',
      broken ? `run error: ${this.errors[0]?.split('\n')[0] ?? result.status}` : '',
    ].filter(Boolean);
    const report = `report in ${path.relative(process.env.CONFORMANCE_CWD || process.cwd(), this.outputDir) || '.'}/summary.md`;
    // No rule ran (the target never answered, say): the error is the whole story, no table of 85 rules not checked.
    this.nothingRan =
      broken && summary.rules.every((r) => r.status === 'skipped' || r.status === 'not selected');
    const outcome = this.nothingRan
      ? `could not run: ${this.errors[0]?.split('\n')[0]?.replace(/^Error: /, '') ?? result.status}`
      : notes.length
        ? `${summary.verdict} (${notes.join(', ')})`
        : summary.verdict;
    this.lastLine = `conformance: ${outcome}; ${report}\n${counts.passed} passed, ${failedForCi} failed`;
    return { status: failedForCi > 0 ? 'failed' : result.status === 'failed' ? 'passed' : result.status };
  }

  async onExit(): Promise<void> {
    if (this.summary) {
      if (!this.nothingRan) console.log(renderVerdictTable(this.summary));
      if (process.env.GITHUB_ACTIONS === 'true') toGithub(this.summary, this.outputDir);
    }
    if (this.lastLine) console.log(this.lastLine);
  }
}

/** A progress line for a rule that has run this long, then another each PROGRESS_EVERY_MS. */
const PROGRESS_AFTER_MS = 5_000;
const PROGRESS_EVERY_MS = 15_000;

const ruleOf = (test: TestCase) => test.annotations.find((a) => a.type === 'rule')?.description;

/** Under GitHub Actions: the annotations on stdout, summary.md appended to the job summary. */
function toGithub(summary: Summary, outputDir: string): void {
  for (const line of workflowCommands(summary)) console.log(line);
  const file = process.env.GITHUB_STEP_SUMMARY;
  if (file) fs.appendFileSync(file, `${fs.readFileSync(path.join(outputDir, 'summary.md'), 'utf8')}\n`);
}
