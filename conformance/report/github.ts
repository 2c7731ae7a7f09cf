/**
 * GitHub Actions workflow commands from the report data: one annotation per rule that needs a look,
 * by level (a failed MUST rule is an `::error`, a failed SHOULD rule a `::warning`, a rule that could not
 * be set up or finish and an unexpected pass a `::warning`), titled by the rule id, its message pointing
 * at the spec statements it checks (linked when --spec-url is given); a run error is an `::error`, and
 * the verdict a `::notice`. The CLI prints them on stdout when GITHUB_ACTIONS=true and appends summary.md
 * to $GITHUB_STEP_SUMMARY (https://docs.github.com/actions/reference/workflow-commands-for-github-actions).
 */
import { counted, notChecked, VERDICT_MEANING } from './labels.ts';
import type { RuleOutcome, Summary } from './summary.ts';

// The escapes the runner reads back: data loses %, CR and LF; a property also : and ,.
const data = (text: string) => text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
const property = (text: string) => data(text).replace(/:/g, '%3A').replace(/,/g, '%2C');

export type AnnotationLevel = 'error' | 'warning' | 'notice';

/** The annotation a rule gets, if any: its level and why. */
export function annotationOf(r: RuleOutcome): { level: AnnotationLevel; why: string } | undefined {
  const kind = counted(r);
  if (kind === 'failed') return { level: 'error', why: 'MUST rule failed' };
  if (kind === 'warning') return { level: 'warning', why: 'SHOULD rule failed (a warning: the run passes)' };
  if (notChecked(r.status)) return { level: 'warning', why: `${r.status} (not checked)` };
  if (r.status === 'unexpectedly passing')
    return { level: 'warning', why: 'listed by --expect, yet passed: take it off the list' };
  return undefined;
}

function statementText(summary: Summary, r: RuleOutcome): string {
  const links = r.statements.map((s) => (summary.specUrl ? `${s} ${summary.specUrl}#${s}` : s));
  return `spec ${links.join(', ')}: ${r.spec}`;
}

export function workflowCommands(summary: Summary): string[] {
  const lines: string[] = [];
  for (const error of summary.errors)
    lines.push(`::error title=${property('conformance run')}::${data(`the run broke: ${error}`)}`);
  for (const r of summary.rules) {
    const annotation = annotationOf(r);
    if (!annotation) continue;
    const message = [
      `${r.id} [${r.level}] ${r.title}: ${annotation.why}`,
      r.defect && r.status !== 'skipped' ? `fails because of ${r.defect}` : '',
      r.reason ?? '',
      statementText(summary, r),
      r.exchange ? `replay: ${r.exchange.curl}` : '',
    ]
      .filter(Boolean)
      .join('\n');
    lines.push(`::${annotation.level} title=${property(r.id)}::${data(message)}`);
  }
  const { counts } = summary;
  lines.push(
    `::notice title=${property('conformance verdict')}::${data(`${summary.name}: ${summary.verdict} (${VERDICT_MEANING[summary.verdict]}): ${counts.passed} passed, ${counts.failed} MUST failed, ${counts.warnings} warnings, ${counts.skipped} skipped`)}`,
  );
  return lines;
}
