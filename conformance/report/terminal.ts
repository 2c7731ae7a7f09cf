/**
 * What the terminal shows at the end of a run, before the last line: a verdict table per section of the
 * spec, and the defects when the report data groups failures into defects. A pure function.
 */
import { sectionRows, statusLabel, VERDICT_MEANING } from './labels.ts';
import type { RuleOutcome, Summary } from './summary.ts';

/** The line a rule gets in the terminal as it ends: its status as its level counts it, and why when it did not pass. */
export function ruleLine(rule: RuleOutcome, durationMs: number): string {
  const line = `  ${statusLabel(rule)}  ${rule.id} [${rule.level}] ${rule.title} (${(durationMs / 1000).toFixed(1)} s)`;
  const why = rule.status === 'passed' ? undefined : rule.reason?.split('\n')[0];
  return why ? `${line}\n      ${why.slice(0, 200)}` : line;
}

export function renderVerdictTable(summary: Summary): string {
  const head = ['Section', 'Rules', 'Passed', 'Failed', 'Warnings', 'Not checked', 'Verdict'];
  const all = sectionRows(summary);
  const rows = all
    .filter((s) => s.verdict !== 'not selected')
    .map((s) => [
      s.section,
      String(s.rules),
      String(s.passed),
      String(s.failed),
      String(s.warnings),
      String(s.notChecked),
      s.verdict,
    ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) =>
        i === 0 || i === cells.length - 1 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0),
      )
      .join('  ')
      .trimEnd();
  const out = [
    '',
    line(head),
    line(widths.map((w) => '-'.repeat(w))),
    ...rows.map(line),
    '',
    `Verdict: ${summary.verdict} (${VERDICT_MEANING[summary.verdict]})`,
  ];
  const notSelected = summary.rules.filter((r) => (r.status as string) === 'not selected').length;
  if (notSelected) out.splice(-1, 0, `${notSelected} rules not selected (--grep): no part of the verdict.`);
  if (summary.defects?.length) {
    out.push('Defects:');
    for (const d of summary.defects) out.push(`  ${d.id} [${d.level}] ${d.title} (${d.rules.join(', ')})`);
  }
  return out.join('\n');
}
