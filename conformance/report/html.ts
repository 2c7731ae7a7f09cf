/**
 * The suite's own report page (index.html in the report folder), from the same report data as
 * summary.md: the verdict first, in a banner; the defects; a verdict per section; then every rule by
 * section with its level, status, reason, the exchange that decided a failure and its curl line. A failed
 * SHOULD rule is a warning (amber), never a failure. Playwright's own report (html/, with the traces)
 * stays beside it and is linked. A pure function: one self-contained HTML file, no script.
 */
import type { Exchange } from '../support/exchange.ts';
import { type Evidence, historyTable, OVERLAPPING } from './defects.ts';
import { counted, notChecked, sectionRows, statusLabel, VERDICT_MEANING } from './labels.ts';
import { ruleNote } from './markdown.ts';
import type { RuleOutcome, Summary } from './summary.ts';

const esc = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const VERDICT_CLASS: Record<string, string> = {
  conforms: 'ok',
  incomplete: 'incomplete',
  'does not conform': 'bad',
  'not selected': 'muted',
};

/** The CSS class of a rule's row: what its status counts as at its level. */
function rowClass(r: RuleOutcome): string {
  const kind = counted(r);
  if (kind === 'failed') return 'bad';
  if (kind === 'warning' || r.status === 'unexpectedly passing') return 'warn';
  if (notChecked(r.status) || r.status === 'skipped') return 'incomplete';
  if ((r.status as string) === 'not selected') return 'muted';
  return kind === 'info' ? 'info' : 'ok';
}

function exchangeBlock(e: Exchange): string {
  const head = (headers: Record<string, string>) => Object.entries(headers).map(([k, v]) => `${k}: ${v}`);
  const request = [`${e.request.method} ${e.request.url}`, ...head(e.request.headers)];
  if (e.request.body !== undefined) request.push('', e.request.body);
  const response = [String(e.response.status), ...head(e.response.headers), '', e.response.body];
  const cut = e.response.truncated ? ` (body cut at ${e.bodyLimit} of ${e.response.bytes} bytes)` : '';
  return `<div class="curl"><span>replay:</span> <code>${esc(e.curl)}</code></div>
<details><summary>the exchange that decided it</summary><pre>${esc(request.join('\n'))}</pre><p>answer${cut}:</p><pre>${esc(response.join('\n'))}</pre></details>`;
}

function ruleRow(data: Summary, r: RuleOutcome): string {
  const statements = r.statements
    .map((s) => (data.specUrl ? `<a href="${esc(`${data.specUrl}#${s}`)}">${esc(s)}</a>` : esc(s)))
    .join(', ');
  const note = ruleNote(r);
  return `<tr class="${rowClass(r)}" id="${esc(r.id)}"><td class="id">${esc(r.id)}</td><td>${r.level}</td><td class="status">${esc(statusLabel(r))}</td>
<td>${esc(r.title)}<div class="statements">${statements}</div>${note ? `<div class="note">${esc(note).replace(/\n/g, '<br>')}</div>` : ''}${r.exchange ? exchangeBlock(r.exchange) : ''}</td></tr>`;
}

/**
 * A defect's history (the explorer's evidence): a race's timeline (as an image: its texts come from the
 * implementation's answers, so nothing of it runs in the page), the exchanges, the replay script.
 */
function historyHtml(evidence: Evidence): string {
  // The request and the answer (the last two columns) as code.
  const tableHtml = (table: { head: string[]; rows: string[][] }) => {
    const codeFrom = table.head.length - 2;
    const rows = table.rows
      .map(
        (row) =>
          `<tr>${row.map((text, i) => (i >= codeFrom ? `<td><code>${esc(text)}</code></td>` : `<td>${esc(text)}</td>`)).join('')}</tr>`,
      )
      .join('');
    return `<table><thead><tr>${table.head.map((h) => `<th>${esc(h)}</th>`).join('')}</tr></thead><tbody>${rows}</tbody></table>`;
  };
  const overlapping = evidence.overlapping?.length
    ? `<p>${esc(OVERLAPPING)}</p>${tableHtml(historyTable(evidence.overlapping))}`
    : '';
  const timeline = evidence.svg
    ? `<img class="timeline" alt="the history as a timeline, one lane per client" src="data:image/svg+xml;base64,${Buffer.from(evidence.svg).toString('base64')}">`
    : '';
  return `<details class="history"><summary>its history (${evidence.history.length} exchanges${evidence.svg ? ', a timeline' : ''}) and a script that replays it</summary><p>Expected: ${esc(evidence.expected)}</p>${timeline}${tableHtml(historyTable(evidence.history))}${overlapping}<pre>${esc(evidence.script)}</pre></details>`;
}

export function renderHtml(data: Summary, options: { playwrightReport?: string } = {}): string {
  const { counts } = data;
  const sections = sectionRows(data);
  const defects = data.defects?.length
    ? `<section><h2>Defects</h2><table><thead><tr><th>Defect</th><th>Level</th><th>What is wrong</th><th>Rules that met it (a SHOULD defect warns)</th></tr></thead><tbody>
${data.defects.map((d) => `<tr class="${d.level === 'MUST' ? 'bad' : 'warn'}"><td class="id">${esc(d.id)}</td><td>${d.level}</td><td>${esc(d.title)}${d.curl ? `<div class="curl"><span>replay:</span> <code>${esc(d.curl)}</code></div>` : ''}${d.evidence ? historyHtml(d.evidence) : ''}</td><td>${d.rules.map((id) => `<a href="#${esc(id)}">${esc(id)}</a>`).join(', ')}</td></tr>`).join('\n')}
</tbody></table></section>`
    : '';
  const errors = data.errors.length
    ? `<section><h2>Run errors</h2><ul>${data.errors.map((e) => `<li><pre>${esc(e)}</pre></li>`).join('')}</ul></section>`
    : '';
  const sectionTable = `<section><h2>Sections</h2><table><thead><tr><th>Section</th><th>Rules</th><th>Passed</th><th>Failed (MUST)</th><th>Warnings</th><th>Not checked</th><th>Verdict</th></tr></thead><tbody>
${sections.map((s) => `<tr class="${VERDICT_CLASS[s.verdict]}"><td>${s.verdict === 'not selected' ? esc(s.section) : `<a href="#${esc(slug(s.section))}">${esc(s.section)}</a>`}</td><td>${s.rules}</td><td>${s.passed}</td><td>${s.failed}</td><td>${s.warnings}</td><td>${s.notChecked}</td><td>${esc(s.verdict)}</td></tr>`).join('\n')}
</tbody></table></section>`;
  const rules = sections
    .filter((s) => s.verdict !== 'not selected')
    .map(
      (
        s,
      ) => `<section id="${esc(slug(s.section))}"><h2>${esc(s.section)} <small class="${VERDICT_CLASS[s.verdict]}">${esc(s.verdict)}</small></h2>
<table class="rules"><thead><tr><th>Rule</th><th>Level</th><th>Status</th><th>Check</th></tr></thead><tbody>
${data.rules
  .filter((r) => r.section === s.section)
  .map((r) => ruleRow(data, r))
  .join('\n')}
</tbody></table></section>`,
    )
    .join('\n');
  const playwright = options.playwrightReport
    ? `<p>Playwright's report of the same run, with the traces: <a href="${esc(options.playwrightReport)}">${esc(options.playwrightReport)}</a></p>`
    : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(`${data.verdict}: ${data.name} (conformance report)`)}</title>
<style>
body{font-family:system-ui,sans-serif;margin:0 auto;max-width:1100px;padding:1rem;color:#1b1f24}
#verdict{border-radius:8px;padding:1rem 1.25rem;margin-bottom:1rem;color:#fff}
#verdict h1{margin:0;font-size:2rem}#verdict p{margin:.3rem 0 0}
#verdict.ok{background:#1a7f37}#verdict.bad{background:#cf222e}#verdict.incomplete{background:#9a6700}
.counts{display:flex;gap:.5rem;flex-wrap:wrap;margin:.5rem 0}.counts span{border:1px solid #d0d7de;border-radius:6px;padding:.2rem .6rem}
table{border-collapse:collapse;width:100%;margin:.5rem 0}td,th{border-bottom:1px solid #d0d7de;padding:.3rem .5rem;text-align:left;vertical-align:top}
tr.bad td.status,small.bad{color:#cf222e;font-weight:600}tr.warn td.status{color:#9a6700;font-weight:600}
tr.incomplete td.status,small.incomplete{color:#9a6700}tr.ok td.status,small.ok{color:#1a7f37}tr.muted{color:#8c959f}
tr.bad{background:#ffebe9}tr.warn{background:#fff8c5}img.timeline{max-width:100%}
.id{font-family:ui-monospace,monospace;white-space:nowrap}.statements{color:#57606a;font-size:.85em}
.note{font-size:.9em;margin-top:.2rem;white-space:pre-wrap}.curl{font-size:.85em;margin-top:.3rem}
code,pre{font-family:ui-monospace,monospace;font-size:.85em;white-space:pre-wrap;word-break:break-all}pre{background:#f6f8fa;padding:.4rem}
</style></head><body>
<header id="verdict" class="${VERDICT_CLASS[data.verdict]}"><h1>Verdict: ${esc(data.verdict)}</h1><p>${esc(VERDICT_MEANING[data.verdict])}</p>
<p>${esc(data.name)}${data.name !== data.target ? ` (${esc(data.target)})` : ''}</p></header>
<div class="counts"><span>${counts.passed} passed</span><span>${counts.failed} failed (MUST)</span><span>${counts.warnings} warnings</span><span>${counts.skipped} skipped</span><span>${counts.notSetUp} could not set up</span><span>${counts.notFinished} could not finish</span><span>${counts.expectedFailures} expected failures</span><span>${counts.unexpectedPasses} unexpectedly passing</span></div>
<p>Suite ${esc(`${data.suite.name} ${data.suite.version}`)}, spec revision ${esc(data.spec.revision)}, generated ${esc(data.generatedAt)}.
Levels: a failed MUST rule fails the run; a failed SHOULD rule is a warning; an INFO rule records what the implementation does where the spec is open.</p>
${playwright}
${errors}
${defects}
${sectionTable}
${rules}
</body></html>
`;
}

const slug = (text: string) =>
  `section-${text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')}`;
