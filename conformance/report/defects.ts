/**
 * Defects, not rule failures: the failing rules grouped by the signatures of their disagreements with
 * the model (model/signature.ts). One defect is one signature, listed once with every rule that met
 * it; a rule that fails only because of defects an earlier rule already named says so (`defect`).
 * Pure: rule outcomes in, defects out.
 */
import { namedTitle } from '../model/named-defects.ts';
import type { Signature } from '../model/signature.ts';
import { signatureKey } from '../model/signature.ts';
import { type Level, statusOf } from '../rules/index.ts';
import type { Exchange } from '../support/exchange.ts';

/** One exchange of a defect's history (the explorer's: its sequence, or the smallest history of a race). */
export interface HistoryStep {
  /** 1-based, in the order of the sequence (of the calls, for a history). */
  n: number;
  /** The client that sent it (a race). */
  client?: number;
  method: string;
  url: string;
  body?: string;
  /** The answer; none when none came. */
  status?: number;
  answer?: string;
  /** ms since the run began: when it was sent and when its answer came. */
  call: number;
  ret: number;
  /** Its place in the order of the answers (1: answered first); `n` is its place in the order of the calls. None: no answer. */
  returned?: number;
  /** A race's set-up write, sent before the clients started, or a read after they all finished. */
  part?: 'before' | 'after';
  /** Its answer set aside by the minimal history: it may take effect any time after its call. */
  relaxed?: true;
}

/** Who sent a step of a history, as the report's tables say it: a client of a race, or the set-up and reads around it. */
export function senderOf(step: HistoryStep): string {
  if (step.part === 'before') return 'before the race';
  if (step.part === 'after') return 'read after the race';
  return step.client === undefined ? '' : `client ${step.client}`;
}

/** A step's answer as the tables say it. */
export const answerOf = (step: HistoryStep): string =>
  `${step.relaxed ? '(answer set aside: may take effect any time after its call) ' : ''}${step.status === undefined ? 'no answer' : `${step.status} ${step.answer ?? ''}`}`;

/** The place of a step in the order of the answers, as the tables say it. */
export const returnedOf = (step: HistoryStep): string =>
  step.returned === undefined ? (step.status === undefined ? 'no answer' : '') : String(step.returned);

/**
 * A defect's history (or a race's overlapping writes of other ids) as a table, for summary.md and
 * index.html alike: each step's place in the order of the calls, its times, request and answer; for a
 * race also who sent it and its place in the order of the answers. Plain text cells: each renderer
 * escapes them its way.
 */
export function historyTable(history: readonly HistoryStep[]): { head: string[]; rows: string[][] } {
  const race = history.some((step) => step.client !== undefined);
  return {
    head: [
      race ? '# (order of calls)' : '#',
      ...(race ? ['sent by', 'order of answers'] : []),
      'sent (ms)',
      'answered (ms)',
      'request',
      'answer',
    ],
    rows: history.map((step) => [
      String(step.n),
      ...(race ? [senderOf(step), returnedOf(step)] : []),
      String(Math.round(step.call)),
      Number.isFinite(step.ret) ? String(Math.round(step.ret)) : '',
      `${step.method} ${step.url}${step.body === undefined ? '' : ` ${step.body}`}`,
      answerOf(step),
    ]),
  };
}

/** The heading of a race's overlapping writes of other ids, in summary.md and index.html alike. */
export const OVERLAPPING =
  'Writes of other ids that overlapped it and answered success (not part of the minimal history; shown for what they may have overwritten):';

/** The file, beside summary.md, that holds a race's timeline picture (the reporter writes it, summary.md shows it). */
export const timelineFile = (defectId: string): string => `${defectId}-timeline.svg`;

/** What shows a defect the explorer found: the history that disagreed, a replay script, the timeline of a race. */
export interface Evidence {
  /** The defect's signature key (model/signature.ts `signatureKey`). */
  signature: string;
  /** What the model expected at the step that disagreed. */
  expected: string;
  history: HistoryStep[];
  /**
   * A race's writes of other ids that overlapped it and answered success: no part of the minimal history
   * (which shows only what plays a part), shown apart for what they may have overwritten.
   */
  overlapping?: HistoryStep[];
  /** A shell script of curl lines that sends the same requests (`BASE_URL=… sh`). */
  script: string;
  /** The history drawn as a timeline, one lane per client (a race). */
  svg?: string;
}

export interface Defect {
  /** `D1`, `D2`, … in the order of the signatures: from the cause, so the same defects have the same ids in every run. */
  id: string;
  /** MUST when a MUST rule fails because of it, else SHOULD (it warns). */
  level: 'MUST' | 'SHOULD';
  title: string;
  signature: Signature;
  /** The rules that met it, in catalogue order. */
  rules: string[];
  /** The exchanges that decided those rules (at most three). */
  exchanges: Exchange[];
  /** A curl line that replays the first of them. */
  curl: string;
  /** The explorer's evidence: the history that disagreed, its replay script, a race's timeline. */
  evidence?: Evidence;
}

/** What defects.ts reads of a rule outcome. */
export interface FailingRule {
  id: string;
  level: Level;
  status: string;
  reason?: string;
  signatures?: Signature[];
  /** SHOULD defects the rule met beside its verdict (report/summary.ts `warned`): defects that warn, whatever its status. */
  warned?: Signature[];
  exchange?: Exchange;
}

const EXCHANGES_PER_DEFECT = 3;

/** Whether a rule's outcome is a failure a defect explains (an INFO rule never is). */
export function failing(rule: Pick<FailingRule, 'level' | 'status'>): boolean {
  const counted = statusOf(rule.level, rule.status);
  return (
    counted === 'failed' ||
    counted === 'warning' ||
    rule.status === 'could not set up' ||
    rule.status === 'expected failure'
  );
}

/**
 * The first line of a reason, without what changes from run to run (ids, numbers, timings). Digits
 * after a letter are kept: they belong to a word (a random name such as `conf-name-w1fxolby`).
 */
const normalised = (reason: string | undefined): string =>
  (reason ?? 'failed')
    .split('\n')[0]
    ?.replace(/^Error: /, '')
    .replace(/(?<![A-Za-z])\d+/g, 'N')
    .slice(0, 120) ?? 'failed';

/** The signatures a failing rule is grouped by: the model's, else one of its own. */
export function signaturesOf(rule: FailingRule): Signature[] {
  if (rule.signatures?.length) return rule.signatures;
  return [{ operation: rule.id, aspect: 'unclassified', seen: normalised(rule.reason) }];
}

/** A title that stays the same from run to run: it says what the signature says, in words. */
export function titleOf(s: Signature): string {
  const named = namedTitle(s);
  if (named) return named;
  switch (s.aspect) {
    case 'result-word':
      return s.operation === 'write'
        ? `writes answer \`<result>${s.seen}</result>\`, a word the spec does not have`
        : `${s.operation} answers \`<result>${s.seen}</result>\``;
    case 'media-type':
      return `${s.operation}s are labelled \`${s.seen}\``;
    case 'state-change':
      return `${s.operation}: ${s.seen}`;
    case 'default-user':
      return `a fresh service: ${s.seen}`;
    case 'status':
      return `${s.operation} answers status ${s.seen}`;
    case 'unclassified':
      return `${s.operation} fails: ${s.seen}`;
    default:
      return `${s.operation}: ${s.aspect} ${s.seen}`;
  }
}

/** Groups the failing rules (in catalogue order) into defects; `byRule`: the defect a rule fails because of. */
export function defectsOf(rules: readonly FailingRule[]): {
  defects: Defect[];
  byRule: Map<string, string>;
} {
  const byKey = new Map<string, Defect>();
  const byRule = new Map<string, string>();
  /** The signature of the defect a rule fails because of (its first), when it met no new one. */
  const firstKey = new Map<string, string>();
  const defectOf = (signature: Signature, rule: FailingRule): { defect: Defect; known: boolean } => {
    const key = signatureKey(signature);
    const known = byKey.get(key);
    const defect = known ?? {
      id: '',
      level: 'SHOULD',
      title: titleOf(signature),
      signature,
      rules: [],
      exchanges: [],
      curl: '',
    };
    byKey.set(key, defect);
    if (!defect.rules.includes(rule.id)) defect.rules.push(rule.id);
    return { defect, known: known !== undefined };
  };
  for (const rule of rules) {
    // A SHOULD defect met beside the verdict warns as a defect of its own, the rule passed or not.
    for (const signature of rule.warned ?? []) defectOf(signature, rule);
    if (!failing(rule)) continue;
    const keys: string[] = [];
    let named = true;
    for (const signature of signaturesOf(rule)) {
      keys.push(signatureKey(signature));
      const { defect, known } = defectOf(signature, rule);
      if (!known) named = false;
      if (rule.level === 'MUST' && statusOf(rule.level, rule.status) !== 'warning') defect.level = 'MUST';
      if (rule.exchange && defect.exchanges.length < EXCHANGES_PER_DEFECT) {
        defect.exchanges.push(rule.exchange);
        if (!defect.curl) defect.curl = rule.exchange.curl;
      }
    }
    if (named) firstKey.set(rule.id, keys[0] as string);
  }
  // The id comes from the cause, not from the order it was met: the defects in the order of their
  // signatures, so that the same implementation gives the same ids in every run.
  const defects = [...byKey.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, defect], i) => Object.assign(defect, { id: `D${i + 1}` }));
  for (const [rule, key] of firstKey) byRule.set(rule, (byKey.get(key) as Defect).id);
  return { defects, byRule };
}
