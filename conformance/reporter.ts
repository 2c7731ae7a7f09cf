/**
 * Turns the run into the conformance verdict: one entry per catalogue rule (passed, failed or skipped,
 * with the reason), written as reports/conformance/summary.json and rendered to summary.md, plus the
 * counts file for CI (reports/counts/conformance.json). A failed SHOULD is a warning: the run's status
 * is overridden to "passed" unless a MUST rule failed or the target never answered. Prints the last
 * line of the run: `N passed, N failed`.
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
  status: RuleStatus;
  reason?: string;
  observations?: string[];
}

export interface Summary {
  target: string;
  /** `incomplete`: no MUST rule failed, but some were skipped (not checked). */
  verdict: 'conforms' | 'incomplete' | 'does not conform';
  generatedAt: string;
  counts: { passed: number; failed: number; skipped: number; warnings: number };
  errors: string[];
  rules: RuleOutcome[];
}

interface Options {
  outputDir?: string;
  countsFile?: string;
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

  constructor(options: Options = {}) {
    this.outputDir = path.resolve(options.outputDir ?? 'reports/conformance');
    this.countsFile = options.countsFile ? path.resolve(options.countsFile) : undefined;
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
    const withObs = observations.length ? { observations } : {};
    if (result.status === 'skipped') {
      const reason = annotations.find((a) => a.type === 'skip')?.description || 'skipped';
      return { ...base, status: 'skipped', reason, ...withObs };
    }
    if (result.status === 'passed') return { ...base, status: 'passed', ...withObs };
    const message = result.errors.map((e) => e.message ?? e.value ?? '').join('\n') || result.status;
    const reason =
      result.status === 'timedOut' ? `timed out: ${firstLines(message, 3)}` : firstLines(message);
    if (rule.level === 'INFO')
      return { ...base, status: 'passed', observations: [...observations, `could not observe: ${reason}`] };
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
      warnings: rules.filter((r) => r.status === 'failed' && r.level === 'SHOULD').length,
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
      counts.warnings ? `${counts.warnings} SHOULD warning(s)` : '',
      counts.skipped ? `${counts.skipped} skipped` : '',
      broken ? `run error: ${this.errors[0]?.split('\n')[0] ?? result.status}` : '',
    ].filter(Boolean);
    this.lastLine = `${notes.length ? `conformance: ${summary.verdict} (${notes.join(', ')}); report in ${path.relative(process.cwd(), this.outputDir) || '.'}/summary.md\n` : `conformance: ${summary.verdict}; report in ${path.relative(process.cwd(), this.outputDir) || '.'}/summary.md\n`}${counts.passed} passed, ${failedForCi} failed`;
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
    '| passed | failed (MUST) | warnings (SHOULD) | skipped |',
    '|---|---|---|---|',
    `| ${counts.passed} | ${counts.failed} | ${counts.warnings} | ${counts.skipped} |`,
    '',
    'Levels: MUST = stated by SPEC.md, a failure fails the run; SHOULD = HTTP practice the spec implies, a failure is a warning;',
    'INFO = left open by the spec, recorded and never failed. Skipped rules were not checked (see the reason): they are not passes.',
    '',
  ];
  if (summary.errors.length) out.push('## Run errors', '', ...summary.errors.map((e) => `- ${cell(e)}`), '');
  for (const section of SECTIONS) {
    const rules = summary.rules.filter((r) => r.section === section);
    if (!rules.length) continue;
    out.push(
      `## ${section}`,
      '',
      '| Rule | Level | Status | Check | Reason / observation |',
      '|---|---|---|---|---|',
    );
    for (const r of rules) {
      const status =
        r.level === 'INFO' && r.status === 'passed'
          ? 'info'
          : r.status === 'failed' && r.level === 'SHOULD'
            ? 'warning'
            : r.status;
      const note = [r.reason, ...(r.observations ?? [])].filter(Boolean).join('\n');
      out.push(`| ${r.id} | ${r.level} | ${ICON[status]} | ${cell(r.title)} | ${cell(note)} |`);
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
