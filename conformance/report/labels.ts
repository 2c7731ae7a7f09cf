/**
 * What every renderer of the report data shows the same way: a rule's status as its level counts it,
 * the verdict's meaning, the defects (when the report data has them) and a verdict per section. Pure
 * functions of the Summary (report/summary.ts; summary.schema.json describes it).
 */
import { SECTIONS, statusOf } from '../rules/index.ts';
import type { RuleOutcome, Summary, Verdict } from './summary.ts';

const LABEL: Record<string, string> = {
  passed: '✅ passed',
  failed: '❌ failed',
  warning: '⚠️ warning',
  skipped: '⏭️ skipped',
  'not selected': '· not selected',
  'could not set up': '🚧 could not set up',
  'could not finish': '🚧 could not finish',
  'expected failure': '☑️ expected failure',
  'unexpectedly passing': '❗ unexpectedly passing',
  info: 'ℹ️ recorded',
};

/** A rule's status as shown in a table (summary.md, compare.md, the HTML page): its outcome as its level counts it. */
export const statusLabel = (rule: Pick<RuleOutcome, 'level' | 'status'>): string =>
  LABEL[statusOf(rule.level, rule.status)] ?? rule.status;

/** The status as its level counts it: `failed` (a MUST), `warning` (a SHOULD), `info`, or the status itself. */
export const counted = (rule: Pick<RuleOutcome, 'level' | 'status'>): string =>
  statusOf(rule.level, rule.status as string);

/** A rule whose own set-up, or its end, went wrong on the implementation's side: it was not checked. */
export const notChecked = (status: string): boolean =>
  status === 'could not set up' || status === 'could not finish';

export const VERDICT_MEANING: Record<Verdict, string> = {
  conforms: 'every MUST rule selected was checked and passed',
  incomplete: 'no MUST rule failed, but some were not checked: see the reasons',
  'does not conform': 'a MUST rule failed, or the run broke',
};

export type SectionVerdict = Verdict | 'not selected';

export interface SectionRow {
  section: string;
  rules: number;
  passed: number;
  failed: number;
  warnings: number;
  notChecked: number;
  verdict: SectionVerdict;
}

/** One row per section of the spec: how many rules, how they came out, and what that says of the section. */
export function sectionRows(summary: Summary): SectionRow[] {
  return SECTIONS.map((section) => {
    const rules = summary.rules.filter((r) => r.section === section);
    const selected = rules.filter((r) => (r.status as string) !== 'not selected');
    const is = (what: string) => selected.filter((r) => counted(r) === what).length;
    const mustUnchecked = selected.filter(
      (r) => r.level === 'MUST' && (r.status === 'skipped' || notChecked(r.status)),
    ).length;
    const failed =
      is('failed') + selected.filter((r) => r.level === 'MUST' && r.status === 'expected failure').length;
    const verdict: SectionVerdict = !selected.length
      ? 'not selected'
      : failed
        ? 'does not conform'
        : mustUnchecked
          ? 'incomplete'
          : 'conforms';
    return {
      section,
      rules: rules.length,
      passed: is('passed') + is('info'),
      failed,
      warnings: is('warning') + is('unexpectedly passing'),
      notChecked: selected.filter((r) => r.status === 'skipped' || notChecked(r.status)).length,
      verdict,
    };
  }).filter((row) => row.rules > 0);
}

/** The anchor link of a statement of the spec, when the report knows where the spec is. */
export const statementUrl = (summary: Summary, statement: string): string | undefined =>
  summary.specUrl ? `${summary.specUrl}#${statement}` : undefined;
