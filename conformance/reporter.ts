/**
 * Turns the run into the conformance verdict: one entry per catalogue rule (passed, failed, skipped,
 * could not set up, expected failure or unexpectedly passing, with the reason, the exchange that decided
 * a failure, and the spec statements it checks), written as summary.json (its schema:
 * summary.schema.json) and rendered to summary.md in the report folder, plus an optional counts file for
 * a CI tally. A failed SHOULD is a warning, and so is a stop that needed SIGKILL: the run's status is
 * overridden to "passed" unless a MUST rule failed that --expect does not list, or the target never
 * answered. Prints the last line of the run: `N passed, N failed`. Rewrites junit.xml so that a rule that
 * could not be set up is an <error> and an expected failure a <skipped>.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FullResult, Reporter, Suite, TestCase, TestError, TestResult } from '@playwright/test/reporter';
import { failureFailsRun, type Level, RULES, SECTIONS, statusOf } from './rules.ts';
import type { Exchange } from './support/http.ts';

export type RuleStatus =
  | 'passed'
  | 'failed'
  | 'skipped'
  /** Its own set-up step failed (an annotation `setup-error` from support/rule.ts): not checked. */
  | 'could not set up'
  /** Failed, and listed by --expect: does not fail the run. */
  | 'expected failure'
  /** Listed by --expect, yet passed: the list is out of date (a warning). */
  | 'unexpectedly passing';

export interface RuleOutcome {
  id: string;
  level: Level;
  section: string;
  title: string;
  spec: string;
  /** Anchors of docs/SPEC.md the rule checks. */
  statements: readonly string[];
  status: RuleStatus;
  reason?: string;
  observations?: string[];
  /** What went wrong around the rule without failing it: a stop of its instance that needed SIGKILL. */
  warnings?: string[];
  /** The reason --expect gives for a rule known to fail. */
  expected?: string;
  /** The request and answer that decided a failure, and a curl line that replays the request. */
  exchange?: Exchange;
}

export interface Summary {
  suite: { name: string; version: string };
  spec: { revision: string };
  /** The implementation's name: --name, else the target. */
  name: string;
  target: string;
  /** `incomplete`: no MUST rule failed, but some were skipped (not checked). */
  verdict: 'conforms' | 'incomplete' | 'does not conform';
  generatedAt: string;
  /** warnings: failed SHOULD rules plus rules with a warning (a forced stop). */
  counts: {
    passed: number;
    failed: number;
    skipped: number;
    warnings: number;
    notSetUp: number;
    expectedFailures: number;
    unexpectedPasses: number;
  };
  /** Where statement anchors link to (from --spec-url), if given. */
  specUrl?: string;
  errors: string[];
  rules: RuleOutcome[];
}

interface Options {
  outputDir?: string;
  countsFile?: string;
  specUrl?: string;
  /** A JSON file {"RULE-ID": "reason", ...}: the rules known to fail (--expect). */
  expectFile?: string;
  name?: string;
  /** The JUnit file Playwright's junit reporter writes (rewritten at the end, see rewriteJunit). */
  junitFile?: string;
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

/** Reads an --expect file: `{"USR-PUT-03": "why", ...}`; unknown rule ids are an error. */
export function readExpectations(file: string): Map<string, string> {
  const data = JSON.parse(fs.readFileSync(file, 'utf8')) as unknown;
  if (!data || typeof data !== 'object' || Array.isArray(data))
    throw new Error(`${file}: expected an object {"RULE-ID": "reason", ...}`);
  const known = new Set(RULES.map((r) => r.id));
  const out = new Map<string, string>();
  for (const [id, reason] of Object.entries(data)) {
    if (!known.has(id)) throw new Error(`${file}: ${id} is not a rule of this suite`);
    if (typeof reason !== 'string' || !reason.trim())
      throw new Error(`${file}: ${id} needs a reason (a string)`);
    out.set(id, reason);
  }
  return out;
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
  private readonly junitFile: string | undefined;
  private readonly expectations: Map<string, string>;

  constructor(options: Options = {}) {
    this.outputDir = path.resolve(options.outputDir ?? 'reports/conformance');
    this.countsFile = options.countsFile ? path.resolve(options.countsFile) : undefined;
    this.specUrl = options.specUrl;
    this.name = options.name;
    this.junitFile = options.junitFile;
    this.expectations = new Map();
    if (options.expectFile) {
      try {
        this.expectations = readExpectations(options.expectFile);
      } catch (err) {
        this.errors.push(`--expect: ${(err as Error).message}`);
      }
    }
  }

  printsToStdio(): boolean {
    return false;
  }

  onBegin(_config: unknown, suite: Suite): void {
    this.suite = suite;
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    const id = test.annotations.find((a) => a.type === 'rule')?.description;
    if (id) this.results.set(id, { test, result });
  }

  onError(error: TestError): void {
    this.errors.push(firstLines(error.message ?? error.value ?? String(error), 8));
  }

  /** The outcome, then what --expect says of it. */
  private outcome(rule: (typeof RULES)[number]): RuleOutcome {
    const found = this.observed(rule);
    const expected = this.expectations.get(rule.id);
    if (expected === undefined) return found;
    if (found.status === 'failed' || found.status === 'could not set up')
      return { ...found, status: 'expected failure', expected };
    if (found.status === 'passed' && statusOf(rule.level, 'failed') !== 'info')
      return { ...found, status: 'unexpectedly passing', expected };
    return { ...found, expected };
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
    const withObs = {
      ...(observations.length ? { observations } : {}),
      ...(warnings.length ? { warnings } : {}),
    };
    if (result.status === 'skipped') {
      const reason = annotations.find((a) => a.type === 'skip')?.description || 'skipped';
      return { ...base, status: 'skipped', reason, ...withObs };
    }
    if (result.status === 'passed') return { ...base, status: 'passed', ...withObs };
    const message = result.errors.map((e) => e.message ?? e.value ?? '').join('\n') || result.status;
    const reason =
      result.status === 'timedOut' ? `timed out: ${firstLines(message, 3)}` : firstLines(message);
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
    return { ...base, status: 'failed', reason, ...withObs, ...withExchange };
  }

  async onEnd(result: FullResult): Promise<{ status: FullResult['status'] }> {
    void this.suite;
    const rules = RULES.map((rule) => this.outcome(rule));
    const must = (status: RuleStatus) =>
      rules.filter((r) => r.status === status && failureFailsRun(r.level)).length;
    const mustFailed = rules.filter((r) => statusOf(r.level, r.status) === 'failed').length;
    const counts = {
      passed: rules.filter((r) => r.status === 'passed').length,
      failed: mustFailed,
      skipped: rules.filter((r) => r.status === 'skipped').length,
      warnings: rules.filter(
        (r) =>
          statusOf(r.level, r.status) === 'warning' ||
          r.status === 'unexpectedly passing' ||
          r.warnings?.length,
      ).length,
      notSetUp: rules.filter((r) => r.status === 'could not set up').length,
      expectedFailures: rules.filter((r) => r.status === 'expected failure').length,
      unexpectedPasses: rules.filter((r) => r.status === 'unexpectedly passing').length,
    };
    const broken = this.errors.length > 0 || result.status === 'interrupted' || result.status === 'timedout';
    const { name: suiteName, version, specRevision } = manifest();
    const target =
      process.env.CONFORMANCE_RESOLVED_DESCRIPTION ||
      process.env.CONFORMANCE_BASE_URL ||
      'unresolved (the target never answered)';
    // An expected MUST failure is still a MUST failure: the verdict says so, the exit code does not.
    const verdict: Summary['verdict'] =
      mustFailed > 0 || must('expected failure') > 0 || broken
        ? 'does not conform'
        : must('skipped') + must('could not set up') > 0
          ? 'incomplete'
          : 'conforms';
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
      rules,
    };
    fs.mkdirSync(this.outputDir, { recursive: true });
    fs.writeFileSync(path.join(this.outputDir, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`);
    fs.writeFileSync(path.join(this.outputDir, 'summary.md'), renderMarkdown(summary));
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
    if (this.junitFile) rewriteJunit(this.junitFile, rules);
    const notes = [
      counts.warnings ? `${counts.warnings} warning(s)` : '',
      counts.notSetUp ? `${counts.notSetUp} could not set up` : '',
      counts.expectedFailures ? `${counts.expectedFailures} expected failure(s)` : '',
      counts.unexpectedPasses ? `${counts.unexpectedPasses} unexpectedly passing` : '',
      counts.skipped ? `${counts.skipped} skipped` : '',
      broken ? `run error: ${this.errors[0]?.split('\n')[0] ?? result.status}` : '',
    ].filter(Boolean);
    this.lastLine = `${notes.length ? `conformance: ${summary.verdict} (${notes.join(', ')}); report in ${path.relative(process.env.CONFORMANCE_CWD || process.cwd(), this.outputDir) || '.'}/summary.md\n` : `conformance: ${summary.verdict}; report in ${path.relative(process.env.CONFORMANCE_CWD || process.cwd(), this.outputDir) || '.'}/summary.md\n`}${counts.passed} passed, ${failedForCi} failed`;
    return { status: failedForCi > 0 ? 'failed' : result.status === 'failed' ? 'passed' : result.status };
  }

  async onExit(): Promise<void> {
    if (this.lastLine) console.log(this.lastLine);
  }
}

const escapeXml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * Playwright's junit.xml knows failures only: a rule that could not be set up becomes an <error> (not
 * checked, not a failed assertion) and an expected failure a <skipped> with the --expect reason, and the
 * failures/errors/skipped counts of each <testsuite> and of <testsuites> are recounted.
 */
export function rewriteJunit(file: string, rules: RuleOutcome[]): void {
  if (!fs.existsSync(file)) return;
  const byId = new Map(rules.map((r) => [r.id, r]));
  let xml = fs.readFileSync(file, 'utf8');
  xml = xml.replace(
    /<testcase name="([A-Z]+(?:-[A-Z]+)*-\d+) [^"]*"[^>]*>[\s\S]*?<\/testcase>/g,
    (block, id: string) => {
      const rule = byId.get(id);
      if (rule?.status === 'could not set up')
        return block
          .replace(
            /<failure message="[^"]*" type="[^"]*"/,
            `<error message="${escapeXml(rule.reason ?? '')}" type="SETUP"`,
          )
          .replace('</failure>', '</error>');
      if (rule?.status === 'expected failure')
        return block.replace(
          /<failure [\s\S]*?<\/failure>/,
          `<skipped message="${escapeXml(`expected failure: ${rule.expected ?? ''}`)}"/>`,
        );
      return block;
    },
  );
  const count = (text: string, tag: string) => (text.match(new RegExp(`<${tag}[ >/]`, 'g')) ?? []).length;
  const recount = (open: string, body: string) =>
    open
      .replace(/ failures="\d+"/, ` failures="${count(body, 'failure')}"`)
      .replace(/ errors="\d+"/, ` errors="${count(body, 'error')}"`)
      .replace(/ skipped="\d+"/, ` skipped="${count(body, 'skipped')}"`);
  xml = xml.replace(
    /(<testsuite [^>]*>)([\s\S]*?<\/testsuite>)/g,
    (_all, open: string, body: string) => recount(open, body) + body,
  );
  xml = xml.replace(
    /(<testsuites [^>]*>)([\s\S]*<\/testsuites>)/,
    (_all, open: string, body: string) => recount(open, body) + body,
  );
  fs.writeFileSync(file, xml);
}

const ICON: Record<string, string> = {
  passed: '✅ passed',
  failed: '❌ failed',
  warning: '⚠️ warning',
  skipped: '⏭️ skipped',
  'could not set up': '🚧 could not set up',
  'expected failure': '☑️ expected failure',
  'unexpectedly passing': '❗ unexpectedly passing',
  info: 'ℹ️ recorded',
};

/** A rule's status as shown in a table (summary.md, compare.md): its outcome as its level counts it. */
export const statusLabel = (rule: Pick<RuleOutcome, 'level' | 'status'>): string =>
  ICON[statusOf(rule.level, rule.status)] ?? rule.status;

const VERDICT: Record<Summary['verdict'], string> = {
  conforms: 'every MUST rule was checked and passed',
  incomplete: 'no MUST rule failed, but some were skipped: see the reasons',
  'does not conform': 'a MUST rule failed, or the run broke',
};

function cell(text: string | undefined): string {
  return (text ?? '').replace(/\|/g, '\\|').replace(/\n+/g, '<br>');
}

/** A fence longer than any run of backticks in the text. */
function fenced(text: string, lang: string): string[] {
  const longest = Math.max(2, ...(text.match(/`+/g) ?? []).map((m) => m.length));
  const fence = '`'.repeat(longest + 1);
  return [`${fence}${lang}`, text, fence];
}

/** The exchange that decided a rule, collapsed: the request, the answer (body cut), the curl line. */
export function renderExchange(id: string, e: Exchange): string[] {
  const { request, response } = e;
  const head = (headers: Record<string, string>) => Object.entries(headers).map(([k, v]) => `${k}: ${v}`);
  const req = [
    `${request.method} ${request.url}`,
    ...head(request.headers),
    ...(request.body !== undefined ? ['', request.body] : []),
  ];
  const res = [`${response.status}`, ...head(response.headers), '', response.body];
  const cutNote = response.truncated
    ? `the body is cut at ${e.bodyLimit} of its ${response.bytes} bytes`
    : `the whole body (${response.bytes} bytes; bodies are cut at ${e.bodyLimit})`;
  return [
    `<details><summary>${id}: the exchange that decided it, and a curl line to replay it</summary>`,
    '',
    'Request:',
    '',
    ...fenced(req.join('\n'), 'http'),
    '',
    `Response (${cutNote}):`,
    '',
    ...fenced(res.join('\n'), 'http'),
    '',
    ...fenced(e.curl, 'sh'),
    '',
    '</details>',
    '',
  ];
}

export function renderMarkdown(summary: Summary): string {
  const { counts } = summary;
  const out: string[] = [
    '# Conformance report',
    '',
    ...(summary.name !== summary.target ? [`- Implementation: ${summary.name}`] : []),
    `- Target: ${summary.target}`,
    `- Suite: ${summary.suite.name} ${summary.suite.version}, spec revision ${summary.spec.revision}`,
    `- Generated: ${summary.generatedAt}`,
    `- Verdict: **${summary.verdict}** (${VERDICT[summary.verdict]})`,
    '',
    '| passed | failed (MUST) | warnings | skipped | could not set up | expected failures | unexpectedly passing |',
    '|---|---|---|---|---|---|---|',
    `| ${counts.passed} | ${counts.failed} | ${counts.warnings} | ${counts.skipped} | ${counts.notSetUp} | ${counts.expectedFailures} | ${counts.unexpectedPasses} |`,
    '',
    'Levels: MUST = stated by the spec, a failure fails the run; SHOULD = HTTP practice the spec implies, a failure is a warning;',
    'INFO = left open by the spec, recorded and never failed. Skipped rules were not checked (see the reason): they are not passes.',
    summary.specUrl
      ? `Spec: the statements each rule checks link to [the spec](${summary.specUrl}).`
      : 'Spec: the Spec column names the anchors of the statements each rule checks in docs/SPEC.md of the user-service repository (--spec-url links them).',
    '',
  ];
  const statement = (id: string) => (summary.specUrl ? `[${id}](${summary.specUrl}#${id})` : id);
  if (summary.errors.length) out.push('## Run errors', '', ...summary.errors.map((e) => `- ${cell(e)}`), '');
  for (const section of SECTIONS) {
    const rules = summary.rules.filter((r) => r.section === section);
    if (!rules.length) continue;
    out.push(
      `## ${section}`,
      '',
      '| Rule | Level | Status | Check | Spec | Reason / observation |',
      '|---|---|---|---|---|---|',
    );
    for (const r of rules) {
      const note = [
        r.expected ? `expected to fail (--expect): ${r.expected}` : '',
        r.reason,
        ...(r.observations ?? []),
        ...(r.warnings ?? []).map((w) => `⚠️ ${w}`),
      ]
        .filter(Boolean)
        .join('\n');
      const spec = (r.statements ?? []).map(statement).join(', ');
      out.push(`| ${r.id} | ${r.level} | ${statusLabel(r)} | ${cell(r.title)} | ${spec} | ${cell(note)} |`);
    }
    out.push('');
    for (const r of rules) if (r.exchange) out.push(...renderExchange(r.id, r.exchange));
  }
  const info = summary.rules.filter((r) => r.level === 'INFO');
  out.push('## What the implementation does where the spec is open (INFO)', '');
  for (const r of info)
    out.push(
      `- **${r.id}** ${r.title}: ${r.status === 'skipped' ? `skipped (${r.reason})` : (r.observations ?? ['(nothing recorded)']).join('; ')}`,
    );
  out.push('');
  return out.join('\n');
}
