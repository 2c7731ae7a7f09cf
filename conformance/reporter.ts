/**
 * Turns the run into the conformance verdict: one entry per catalogue rule (passed, failed or skipped,
 * with the reason, and the spec statements it checks), written as summary.json and rendered to
 * summary.md in the report folder, plus an optional counts file for a CI tally. A failed SHOULD is a
 * warning, and so is a stop that needed SIGKILL: the run's status is overridden to "passed" unless a
 * MUST rule failed or the target never answered. Prints the last line of the run: `N passed, N failed`.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { FullResult, Reporter, Suite, TestCase, TestError, TestResult } from '@playwright/test/reporter';
import { type Level, RULES, SECTIONS } from './rules.ts';

export type RuleStatus = 'passed' | 'failed' | 'skipped';

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
}

export interface Summary {
  target: string;
  /** `incomplete`: no MUST rule failed, but some were skipped (not checked). */
  verdict: 'conforms' | 'incomplete' | 'does not conform';
  generatedAt: string;
  /** warnings: failed SHOULD rules plus rules with a warning (a forced stop). */
  counts: { passed: number; failed: number; skipped: number; warnings: number };
  /** Where statement anchors link to (from --spec-url), if given. */
  specUrl?: string;
  errors: string[];
  rules: RuleOutcome[];
}

interface Options {
  outputDir?: string;
  countsFile?: string;
  specUrl?: string;
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

  constructor(options: Options = {}) {
    this.outputDir = path.resolve(options.outputDir ?? 'reports/conformance');
    this.countsFile = options.countsFile ? path.resolve(options.countsFile) : undefined;
    this.specUrl = options.specUrl;
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

  private outcome(rule: (typeof RULES)[number]): RuleOutcome {
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
    if (rule.level === 'INFO')
      return {
        ...base,
        ...withObs,
        status: 'passed',
        observations: [...observations, `could not observe: ${reason}`],
      };
    return { ...base, status: 'failed', reason, ...withObs };
  }

  async onEnd(result: FullResult): Promise<{ status: FullResult['status'] }> {
    void this.suite;
    const rules = RULES.map((rule) => this.outcome(rule));
    const mustFailed = rules.filter((r) => r.status === 'failed' && r.level === 'MUST').length;
    const mustSkipped = rules.filter((r) => r.status === 'skipped' && r.level === 'MUST').length;
    const counts = {
      passed: rules.filter((r) => r.status === 'passed').length,
      failed: mustFailed,
      skipped: rules.filter((r) => r.status === 'skipped').length,
      warnings: rules.filter((r) => (r.status === 'failed' && r.level === 'SHOULD') || r.warnings?.length)
        .length,
    };
    const broken = this.errors.length > 0 || result.status === 'interrupted' || result.status === 'timedout';
    const summary: Summary = {
      target:
        process.env.CONFORMANCE_RESOLVED_DESCRIPTION ||
        process.env.CONFORMANCE_BASE_URL ||
        'unresolved (the target never answered)',
      verdict: mustFailed > 0 || broken ? 'does not conform' : mustSkipped > 0 ? 'incomplete' : 'conforms',
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
    const notes = [
      counts.warnings ? `${counts.warnings} warning(s)` : '',
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

const ICON: Record<string, string> = {
  passed: '✅ passed',
  failed: '❌ failed',
  warning: '⚠️ warning',
  skipped: '⏭️ skipped',
  info: 'ℹ️ recorded',
};

const VERDICT: Record<Summary['verdict'], string> = {
  conforms: 'every MUST rule was checked and passed',
  incomplete: 'no MUST rule failed, but some were skipped: see the reasons',
  'does not conform': 'a MUST rule failed, or the run broke',
};

function cell(text: string | undefined): string {
  return (text ?? '').replace(/\|/g, '\\|').replace(/\n+/g, '<br>');
}

export function renderMarkdown(summary: Summary): string {
  const { counts } = summary;
  const out: string[] = [
    '# Conformance report',
    '',
    `- Target: ${summary.target}`,
    `- Generated: ${summary.generatedAt}`,
    `- Verdict: **${summary.verdict}** (${VERDICT[summary.verdict]})`,
    '',
    '| passed | failed (MUST) | warnings | skipped |',
    '|---|---|---|---|',
    `| ${counts.passed} | ${counts.failed} | ${counts.warnings} | ${counts.skipped} |`,
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
      const status =
        r.level === 'INFO' && r.status === 'passed'
          ? 'info'
          : r.status === 'failed' && r.level === 'SHOULD'
            ? 'warning'
            : r.status;
      const note = [r.reason, ...(r.observations ?? []), ...(r.warnings ?? []).map((w) => `⚠️ ${w}`)]
        .filter(Boolean)
        .join('\n');
      const spec = (r.statements ?? []).map(statement).join(', ');
      out.push(`| ${r.id} | ${r.level} | ${ICON[status]} | ${cell(r.title)} | ${spec} | ${cell(note)} |`);
    }
    out.push('');
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
