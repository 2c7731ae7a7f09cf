/**
 * junit.xml by level, written from the report data (not from Playwright's XML): one <testsuite> per
 * section of the spec, one <testcase> per rule run. A failed MUST rule is a <failure>; a failed SHOULD
 * rule is not (CI would turn red where the run passes): it carries a <system-out> warning note; a rule
 * that could not be set up or could not finish is an <error> (not checked); a skipped rule and an
 * expected failure are <skipped>; an INFO rule carries its observation in <system-out>. Errors of the
 * run itself (the target never answered) are an <error> of a testcase `conformance run`. Rules that
 * --grep did not select are left out. Checked against the Jenkins JUnit schema by the self-test.
 */
import { counted, notChecked, sectionRows } from './labels.ts';
import type { RuleOutcome, Summary } from './summary.ts';

// XML 1.0 has no place for most control characters, even escaped: they are dropped.
// biome-ignore lint/suspicious/noControlCharactersInRegex: the characters XML 1.0 forbids
const FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;
const xml = (text: string) =>
  text
    .replace(FORBIDDEN, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
const attr = (text: string) => xml(text).replace(/\n/g, '&#10;');

/** What a CI tool shows of a rule: the spec statements, the reason, the exchange's curl line. */
function details(summary: Summary, r: RuleOutcome): string {
  return [
    `${r.id} [${r.level}] ${r.title}`,
    `spec: ${r.spec}`,
    `statements: ${r.statements.map((s) => (summary.specUrl ? `${s} (${summary.specUrl}#${s})` : s)).join(', ')}`,
    r.defect && r.status !== 'skipped' ? `fails because of ${r.defect}` : '',
    r.reason ? `reason: ${r.reason}` : '',
    ...(r.observations ?? []).map((o) => `observation: ${o}`),
    ...(r.warnings ?? []).map((w) => `warning: ${w}`),
    r.exchange ? `replay: ${r.exchange.curl}` : '',
  ]
    .filter(Boolean)
    .join('\n');
}

function testcase(summary: Summary, r: RuleOutcome): string {
  const open = `    <testcase name="${attr(`${r.id} [${r.level}] ${r.title}`)}" classname="${attr(`user-service-conformance.${r.section}`)}">`;
  const body = xml(details(summary, r));
  const message = (text: string | undefined) => attr((text ?? '').split('\n')[0] ?? '');
  const kind = counted(r);
  let inner: string;
  if (kind === 'failed') inner = `<failure type="MUST" message="${message(r.reason)}">${body}</failure>`;
  else if (notChecked(r.status))
    inner = `<error type="${attr(r.status)}" message="${message(r.reason)}">${body}</error>`;
  else if (r.status === 'expected failure')
    inner = `<skipped message="${attr(`expected failure: ${r.expected ?? ''}`)}"/><system-out>${body}</system-out>`;
  else if (r.status === 'skipped') inner = `<skipped message="${message(r.reason)}"/>`;
  else if (kind === 'warning')
    inner = `<system-out>${xml('WARNING (a failed SHOULD rule: does not fail the run)\n')}${body}</system-out>`;
  else if (r.status === 'unexpectedly passing')
    inner = `<system-out>${xml(`WARNING: listed by --expect (${r.expected ?? ''}), yet passed: take it off the list\n`)}${body}</system-out>`;
  else if (kind === 'info')
    inner = `<system-out>${xml('INFO (recorded, never failed)\n')}${body}</system-out>`;
  else inner = r.warnings?.length ? `<system-out>${body}</system-out>` : '';
  return inner ? `${open}${inner}</testcase>` : `${open.slice(0, -1)}/>`;
}

export function renderJunit(summary: Summary): string {
  const run = summary.rules.filter((r) => (r.status as string) !== 'not selected');
  const suites = sectionRows(summary)
    .filter((s) => s.verdict !== 'not selected')
    .map((s) => {
      const rules: RuleOutcome[] = run.filter((r) => r.section === s.section);
      const failures = rules.filter((r) => counted(r) === 'failed').length;
      const errors = rules.filter((r) => notChecked(r.status)).length;
      const skipped = rules.filter((r) => r.status === 'skipped' || r.status === 'expected failure').length;
      return [
        `  <testsuite name="${attr(s.section)}" tests="${rules.length}" failures="${failures}" errors="${errors}" skipped="${skipped}" timestamp="${attr(summary.generatedAt)}">`,
        ...rules.map((r) => testcase(summary, r)),
        '  </testsuite>',
      ].join('\n');
    });
  if (summary.errors.length)
    suites.push(
      [
        '  <testsuite name="conformance run" tests="1" failures="0" errors="1" skipped="0">',
        `    <testcase name="conformance run" classname="user-service-conformance"><error type="run error" message="${attr(summary.errors[0]?.split('\n')[0] ?? '')}">${xml(summary.errors.join('\n\n'))}</error></testcase>`,
        '  </testsuite>',
      ].join('\n'),
    );
  const total = (re: RegExp) => suites.reduce((n, s) => n + Number(re.exec(s)?.[1] ?? 0), 0);
  const name = `user-service-conformance ${summary.suite.version}: ${summary.name} (${summary.verdict})`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${attr(name)}" tests="${total(/ tests="(\d+)"/)}" failures="${total(/ failures="(\d+)"/)}" errors="${total(/ errors="(\d+)"/)}">`,
    ...suites,
    '</testsuites>',
    '',
  ].join('\n');
}
