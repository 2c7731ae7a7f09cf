/**
 * summary.md (and the GitHub job summary): the verdict first, then the defects (when the data groups
 * failures into defects), a verdict per section, then one table per section with every rule, the
 * exchange that decided each failure (collapsed, with a curl line), and what the implementation does
 * where the spec is open. A pure function of the report data.
 */
import type { Exchange } from '../support/exchange.ts';
import { type Evidence, historyTable, OVERLAPPING, timelineFile } from './defects.ts';
import { sectionRows, statusLabel, VERDICT_MEANING } from './labels.ts';
import type { RuleOutcome, Summary } from './summary.ts';

function cell(text: string | undefined): string {
  return (text ?? '').replace(/\|/g, '\\|').replace(/\n+/g, '<br>');
}

/** A fence longer than any run of backticks in the text. */
/**
 * A defect's history (the explorer's evidence): for a race its timeline (the picture the reporter writes
 * beside summary.md), then each exchange with who sent it, its place in the order of the calls (#) and of
 * the answers, its times, request and answer; then its replay script.
 */
export function historyOf(id: string, evidence: Evidence): string[] {
  const table = historyTable(evidence.history);
  const overlapping = evidence.overlapping?.length ? historyTable(evidence.overlapping) : undefined;
  const rowsOf = (t: { head: string[]; rows: string[][] }) => [
    `| ${t.head.join(' | ')} |`,
    `|${t.head.map(() => '---|').join('')}`,
    // The answer cut at 360 characters: summary.md is also GitHub's job summary, which has a size limit.
    ...t.rows.map(
      (row) =>
        `| ${row.map((text, i) => cell(i === row.length - 1 ? text.slice(0, 360) : text)).join(' | ')} |`,
    ),
  ];
  return [
    `<details><summary>${id}: its history (${evidence.history.length} exchanges${evidence.svg ? ', a timeline' : ''}) and a script that replays it</summary>`,
    '',
    `Expected: ${cell(evidence.expected)}`,
    '',
    ...(evidence.svg
      ? [`![${id}: the history as a timeline, one lane per client](${timelineFile(id)})`, '']
      : []),
    ...rowsOf(table),
    '',
    ...(overlapping ? [OVERLAPPING, '', ...rowsOf(overlapping), ''] : []),
    ...fenced(evidence.script, 'sh'),
    '',
    '</details>',
    '',
  ];
}

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

/** The note of a rule in its table: why it is what it is. */
export function ruleNote(r: RuleOutcome): string {
  return [
    r.defect && r.status !== 'skipped' ? `fails because of ${r.defect}` : '',
    r.expected ? `expected to fail (--expect): ${r.expected}` : '',
    r.reason,
    ...(r.observations ?? []),
    ...(r.warnings ?? []).map((w) => `⚠️ ${w}`),
  ]
    .filter(Boolean)
    .join('\n');
}

export function renderMarkdown(summary: Summary): string {
  const { counts } = summary;
  const notSelected = summary.rules.filter((r) => (r.status as string) === 'not selected').length;
  const out: string[] = [
    '# Conformance report',
    '',
    `**Verdict: ${summary.verdict}** (${VERDICT_MEANING[summary.verdict]})`,
    '',
    ...(summary.name !== summary.target ? [`- Implementation: ${summary.name}`] : []),
    `- Target: ${summary.target}`,
    `- Suite: ${summary.suite.name} ${summary.suite.version}, spec revision ${summary.spec.revision}`,
    `- Generated: ${summary.generatedAt}`,
    ...(notSelected
      ? [`- Rules not selected (--grep): ${notSelected}; the verdict is about the others`]
      : []),
    '',
    '| passed | failed (MUST) | warnings | skipped | could not set up | could not finish | expected failures | unexpectedly passing |',
    '|---|---|---|---|---|---|---|---|',
    `| ${counts.passed} | ${counts.failed} | ${counts.warnings} | ${counts.skipped} | ${counts.notSetUp} | ${counts.notFinished} | ${counts.expectedFailures} | ${counts.unexpectedPasses} |`,
    '',
  ];
  if (summary.errors.length) out.push('## Run errors', '', ...summary.errors.map((e) => `- ${cell(e)}`), '');
  const statement = (id: string) => (summary.specUrl ? `[${id}](${summary.specUrl}#${id})` : id);
  if (summary.defects?.length) {
    const inRules = new Set(summary.defects.flatMap((d) => d.rules)).size;
    const count = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;
    out.push(
      '## Defects',
      '',
      `${summary.verdict}: ${count(summary.defects.length, 'defect')}, in ${count(inRules, 'rule')}`,
      '',
      '| Defect | Level | What is wrong | Rules that met it (a SHOULD defect warns) |',
      '|---|---|---|---|',
    );
    for (const d of summary.defects)
      out.push(`| ${d.id} | ${d.level} | ${cell(d.title)} | ${d.rules.join(', ')} |`);
    out.push('');
    for (const d of summary.defects) {
      if (d.curl)
        out.push(
          `<details><summary>${d.id}: replay it</summary>`,
          '',
          ...fenced(d.curl, 'sh'),
          '',
          '</details>',
          '',
        );
      if (d.evidence) out.push(...historyOf(d.id, d.evidence));
    }
  }
  out.push(
    '## Sections',
    '',
    '| Section | Rules | Passed | Failed (MUST) | Warnings | Not checked | Verdict |',
    '|---|---|---|---|---|---|---|',
    ...sectionRows(summary).map(
      (s) =>
        `| ${s.section} | ${s.rules} | ${s.passed} | ${s.failed} | ${s.warnings} | ${s.notChecked} | ${s.verdict} |`,
    ),
    '',
    'Levels: MUST = stated by the spec, a failure fails the run; SHOULD = HTTP practice the spec implies, a failure is a warning;',
    'INFO = left open by the spec, recorded and never failed. Skipped rules were not checked (see the reason): they are not passes.',
    summary.specUrl
      ? `Spec: the statements each rule checks link to [the spec](${summary.specUrl}).`
      : 'Spec: the Spec column names the anchors of the statements each rule checks in docs/SPEC.md of the user-service repository (--spec-url links them).',
    '',
  );
  const run = sectionRows(summary).filter((s) => s.verdict !== 'not selected');
  for (const section of run.map((s) => s.section)) {
    const rules: RuleOutcome[] = summary.rules.filter((r) => r.section === section);
    out.push(
      `## ${section}`,
      '',
      '| Rule | Level | Status | Check | Spec | Reason / observation |',
      '|---|---|---|---|---|---|',
    );
    for (const r of rules) {
      const spec = (r.statements ?? []).map(statement).join(', ');
      out.push(
        `| ${r.id} | ${r.level} | ${statusLabel(r)} | ${cell(r.title)} | ${spec} | ${cell(ruleNote(r))} |`,
      );
    }
    out.push('');
    for (const r of rules) if (r.exchange) out.push(...renderExchange(r.id, r.exchange));
  }
  const info = summary.rules.filter((r) => r.level === 'INFO' && (r.status as string) !== 'not selected');
  out.push('## What the implementation does where the spec is open (INFO)', '');
  for (const r of info)
    out.push(
      `- **${r.id}** ${r.title}: ${r.status === 'skipped' ? `skipped (${r.reason})` : (r.observations ?? ['(nothing recorded)']).join('; ')}`,
    );
  out.push('');
  return out.join('\n');
}
