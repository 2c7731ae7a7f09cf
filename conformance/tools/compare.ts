/**
 * `user-service-conformance compare SUMMARY.json... --out DIR`: several runs side by side. Writes into DIR
 * `compare.md` and `compare.html` (one table: rules down, implementations across, with each rule's level
 * and each implementation's status, and the verdicts on top) and `badges/<name>.json` per implementation
 * (the shields.io endpoint format: https://shields.io/badges/endpoint-badge). Only what a rerun keeps the
 * same goes into the table (names, versions, verdicts, statuses; no times, ports or paths), so a
 * generated table can be checked for currency by comparing text. A file that is not a summary.json
 * (summary.schema.json) is an error naming it, exit code 3 (could not run).
 */
import fs from 'node:fs';
import path from 'node:path';
import { statusLabel } from '../report/labels.ts';
import { readSummary } from '../report/schema.ts';
import type { Summary } from '../report/summary.ts';
import { EXIT } from '../support/exit-codes.mjs';

export interface Badge {
  schemaVersion: 1;
  label: string;
  message: string;
  color: string;
}

export function badge(summary: Summary): Badge {
  const { counts } = summary;
  const message =
    summary.verdict === 'conforms'
      ? `conforms (${counts.passed} rules)`
      : summary.verdict === 'incomplete'
        ? `incomplete (${counts.skipped + counts.notSetUp + counts.notFinished} not checked)`
        : `does not conform (${counts.failed + counts.expectedFailures} MUST failed)`;
  const color =
    summary.verdict === 'conforms' ? 'brightgreen' : summary.verdict === 'incomplete' ? 'yellow' : 'red';
  return { schemaVersion: 1, label: 'user-service conformance', message, color };
}

export const slug = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '') || 'implementation';

interface Table {
  head: string[];
  rows: string[][];
}

export function table(summaries: Summary[]): Table {
  const ids: string[] = [];
  const level = new Map<string, string>();
  for (const s of summaries)
    for (const r of s.rules)
      if (!level.has(r.id)) {
        ids.push(r.id);
        level.set(r.id, r.level);
      }
  const head = ['Rule', 'Level', ...summaries.map((s) => s.name)];
  const meta = [
    ['Verdict', '', ...summaries.map((s) => `**${s.verdict}**`)],
    ['Suite', '', ...summaries.map((s) => `${s.suite.version}`)],
    ['Spec revision', '', ...summaries.map((s) => s.spec.revision)],
    // Counts of statuses only: a warning from a stop that needed SIGKILL depends on the machine's load.
    [
      'passed / failed (MUST) / skipped',
      '',
      ...summaries.map((s) => `${s.counts.passed} / ${s.counts.failed} / ${s.counts.skipped}`),
    ],
  ];
  const rows = ids.map((id) => [
    id,
    level.get(id) ?? '',
    ...summaries.map((s) => {
      const rule = s.rules.find((r) => r.id === id);
      return rule ? statusLabel(rule) : '(not in this version)';
    }),
  ]);
  return { head, rows: [...meta, ...rows] };
}

const mdCell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n+/g, ' ');

export function renderMarkdown(summaries: Summary[], title = 'Implementations side by side'): string {
  const { head, rows } = table(summaries);
  return [
    `# ${title}`,
    '',
    'Rules down, implementations across: ✅ passed, ❌ failed (MUST), ⚠️ warning (failed SHOULD), ℹ️ recorded (INFO),',
    '⏭️ skipped (not checked), 🚧 could not set up, ☑️ expected failure (--expect), ❗ unexpectedly passing.',
    '',
    `| ${head.map(mdCell).join(' | ')} |`,
    `|${head.map(() => '---').join('|')}|`,
    ...rows.map((row) => `| ${row.map(mdCell).join(' | ')} |`),
    '',
  ].join('\n');
}

const html = (text: string) =>
  text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\*\*(.*?)\*\*/g, '<b>$1</b>');

export function renderHtml(summaries: Summary[], title = 'Implementations side by side'): string {
  const { head, rows } = table(summaries);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${html(title)}</title>
<style>body{font-family:sans-serif}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 6px;text-align:left}</style>
</head><body><h1>${html(title)}</h1>
<table><thead><tr>${head.map((h) => `<th>${html(h)}</th>`).join('')}</tr></thead>
<tbody>
${rows.map((row) => `<tr>${row.map((c) => `<td>${html(c)}</td>`).join('')}</tr>`).join('\n')}
</tbody></table></body></html>
`;
}

function main(argv: string[]): number {
  const files: string[] = [];
  let out: string | undefined;
  let title: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--out') out = argv[++i];
    else if (arg === '--title') title = argv[++i];
    else if (arg === '-h' || arg === '--help') {
      console.log('usage: user-service-conformance compare SUMMARY.json... --out DIR [--title TEXT]');
      return 0;
    } else files.push(arg);
  }
  if (!out || files.length === 0) {
    console.error('usage: user-service-conformance compare SUMMARY.json... --out DIR [--title TEXT]');
    return EXIT.usage;
  }
  let summaries: Summary[];
  try {
    summaries = files.map(readSummary);
  } catch (err) {
    console.error(`compare: ${(err as Error).message}`);
    return EXIT.couldNotRun;
  }
  const names = summaries.map((s) => s.name);
  const twice = names.find((n, i) => names.indexOf(n) !== i);
  if (twice) {
    console.error(`compare: two runs are named "${twice}": give each run its own --name`);
    return EXIT.usage;
  }
  fs.mkdirSync(path.join(out, 'badges'), { recursive: true });
  fs.writeFileSync(path.join(out, 'compare.md'), renderMarkdown(summaries, title));
  fs.writeFileSync(path.join(out, 'compare.html'), renderHtml(summaries, title));
  for (const s of summaries)
    fs.writeFileSync(
      path.join(out, 'badges', `${slug(s.name)}.json`),
      `${JSON.stringify(badge(s), null, 2)}\n`,
    );
  console.log(
    `compare: ${summaries.length} implementation(s) in ${path.join(out, 'compare.md')}, compare.html, badges/`,
  );
  return 0;
}

if (
  process.argv[1] &&
  path.resolve(process.argv[1]).replace(/\.[jt]s$/, '') === import.meta.filename.replace(/\.[jt]s$/, '')
)
  process.exitCode = main(process.argv.slice(2));
