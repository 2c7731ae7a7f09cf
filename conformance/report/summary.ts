/**
 * The report data of a run, as summary.json holds it (its schema: summary.schema.json): one outcome per
 * catalogue rule, the defects, the counts and the verdict. Pure types and functions: reporter.ts collects
 * Playwright's events into it; the renderers of report/ and tools/compare.ts read it.
 */
import { type Signature, signatureKey } from '../model/signature.ts';
import { failureFailsRun, type Level, RULES, statusOf } from '../rules/index.ts';
import type { Exchange } from '../support/exchange.ts';
import { type Defect, defectsOf, type Evidence } from './defects.ts';

export type RuleStatus =
  | 'passed'
  | 'failed'
  | 'skipped'
  /** Left out of this run by --grep (or another selection): not checked, and no part of the verdict. */
  | 'not selected'
  /** Its own set-up step failed (an annotation `setup-error` from support/rule.ts): not checked. */
  | 'could not set up'
  /** It stopped before it could check (out of time, no answer, the implementation exited): not checked. */
  | 'could not finish'
  /** Failed, and listed by --expect: does not fail the run. */
  | 'expected failure'
  /** Listed by --expect, yet passed: the list is out of date (a warning). */
  | 'unexpectedly passing';

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
  /** The reason --expect gives for a rule known to fail. */
  expected?: string;
  /** The request and answer that decided a failure, and a curl line that replays the request. */
  exchange?: Exchange;
  /** What the rule's disagreements with the model were about (model/signature.ts): grouped into defects. */
  signatures?: Signature[];
  /**
   * The SHOULD defects a MUST rule met beside its own verdict (the explorer's: a restart that lost the
   * users): each a defect of its own that warns, never what the rule fails because of.
   */
  warned?: Signature[];
  /**
   * The defect (`D1`) this rule fails because of, when an earlier rule already named it; for a rule
   * skipped as `could not check: …`, the lying reader's defect it could only be judged through.
   */
  defect?: string;
  /** The evidence the rule attached to its signatures (the explorer's): moved to the defects in summary.json. */
  evidence?: Evidence[];
}

/** Over the rules selected: `incomplete`: no MUST rule failed, but some were skipped (not checked). */
export type Verdict = 'conforms' | 'incomplete' | 'does not conform';

/** warnings: failed SHOULD rules plus rules with a warning (a forced stop). */
export interface Counts {
  passed: number;
  failed: number;
  skipped: number;
  warnings: number;
  notSetUp: number;
  notFinished: number;
  expectedFailures: number;
  unexpectedPasses: number;
  /** Rules of the catalogue this run did not select (--grep). */
  notSelected?: number;
}

export interface Summary {
  suite: { name: string; version: string };
  spec: { revision: string };
  /** The implementation's name: --name, else the target. */
  name: string;
  target: string;
  verdict: Verdict;
  generatedAt: string;
  counts: Counts;
  /** Where statement anchors link to (from --spec-url), if given. */
  specUrl?: string;
  errors: string[];
  /** The failing rules grouped by the signatures of their disagreements (report/defects.ts). */
  defects: Defect[];
  rules: RuleOutcome[];
}

/** An --expect file's content: `{"USR-PUT-03": "why", ...}`; unknown rule ids are an error. */
export function expectationsOf(data: unknown, file: string): Map<string, string> {
  if (!data || typeof data !== 'object' || Array.isArray(data))
    throw new Error(`${file}: expected an object {"RULE-ID": "reason", ...}`);
  const known = new Set(RULES.map((r) => r.id));
  const out = new Map<string, string>();
  for (const [id, reason] of Object.entries(data)) {
    if (!known.has(id)) throw new Error(`${file}: ${id} is not a rule of this suite`);
    if (typeof reason !== 'string' || !reason.trim())
      throw new Error(`${file}: ${id} needs a reason (a string)`);
    out.set(id, reason);
  }
  return out;
}

type Annotations = ReadonlyArray<{ type: string; description?: string }>;

/**
 * The signatures a rule's `signature` annotations carry (support/rule.ts): those of its level's
 * concern (a SHOULD disagreement does not explain a MUST rule's failure), each once.
 */
export function signaturesIn(annotations: Annotations, level: Level): Signature[] {
  return annotated(annotations, (found) => !(found === 'SHOULD' && level === 'MUST'));
}

/** The SHOULD signatures of a MUST rule's annotations (`warned`): the ones `signaturesIn` leaves out. */
export function warnedIn(annotations: Annotations, level: Level): Signature[] {
  return level === 'MUST' ? annotated(annotations, (found) => found === 'SHOULD') : [];
}

/** The signatures of the `signature` annotations whose level `keep` takes, each once. */
function annotated(annotations: Annotations, keep: (level: unknown) => boolean): Signature[] {
  const out = new Map<string, Signature>();
  for (const a of annotations) {
    if (a.type !== 'signature' || !a.description) continue;
    try {
      const { operation, aspect, seen, level: found } = JSON.parse(a.description);
      if (!keep(found)) continue;
      out.set(`${operation}|${aspect}|${seen}`, { operation, aspect, seen });
    } catch {}
  }
  return [...out.values()];
}

/** Whether the rule met a defect of level MUST (a signature annotation, support/rule.ts). */
export function metMust(annotations: Annotations): boolean {
  return annotations.some((a) => {
    if (a.type !== 'signature' || !a.description) return false;
    try {
      return JSON.parse(a.description).level === 'MUST';
    } catch {
      return false;
    }
  });
}

/** A rule's outcome as found, then what --expect says of it (`expected`: its reason, if listed). */
export function withExpectation(found: RuleOutcome, expected: string | undefined): RuleOutcome {
  if (expected === undefined) return found;
  if (found.status === 'failed' || found.status === 'could not set up')
    return { ...found, status: 'expected failure', expected };
  if (found.status === 'passed' && statusOf(found.level, 'failed') !== 'info')
    return { ...found, status: 'unexpectedly passing', expected };
  return { ...found, expected };
}

/**
 * The defects of the outcomes (catalogue order), each with the evidence a rule attached to its signature,
 * and each rule with the defect it fails because of (the evidence is the defect's, not repeated there).
 */
/** How the reason of a rule skipped for a lying reader begins (support/readers.ts couldNotCheck). */
export const COULD_NOT_CHECK = 'could not check: ';

export function withDefects(outcomes: readonly RuleOutcome[]): { defects: Defect[]; rules: RuleOutcome[] } {
  const { defects, byRule } = defectsOf(outcomes);
  const evidence = new Map(outcomes.flatMap((r) => r.evidence ?? []).map((e) => [e.signature, e]));
  for (const defect of defects) {
    const found = evidence.get(signatureKey(defect.signature));
    if (found) defect.evidence = found;
  }
  const ids = new Map(defects.map((d) => [signatureKey(d.signature), d.id]));
  const rules = outcomes.map(({ evidence: _moved, ...r }) => {
    if (byRule.has(r.id)) return { ...r, defect: byRule.get(r.id) as string };
    // Could not check (support/rule.ts): skipped for a defect another rule names; the reason names it too.
    const blocking = r.status === 'skipped' && r.signatures?.[0] && ids.get(signatureKey(r.signatures[0]));
    if (blocking && r.reason?.startsWith(COULD_NOT_CHECK))
      return { ...r, reason: `${r.reason} (${blocking})`, defect: blocking };
    return r;
  });
  return { defects, rules };
}

/** The evidence annotations of a rule (`evidence`, JSON: tests/explore.spec.ts). */
export function evidenceIn(annotations: Annotations): Evidence[] {
  const out: Evidence[] = [];
  for (const a of annotations) {
    if (a.type !== 'evidence' || !a.description) continue;
    try {
      out.push(JSON.parse(a.description) as Evidence);
    } catch {}
  }
  return out;
}

export function countsOf(rules: readonly RuleOutcome[]): Counts {
  const is = (status: RuleStatus) => rules.filter((r) => r.status === status).length;
  return {
    passed: is('passed'),
    failed: rules.filter((r) => statusOf(r.level, r.status) === 'failed').length,
    skipped: is('skipped'),
    warnings: rules.filter(
      (r) =>
        statusOf(r.level, r.status) === 'warning' ||
        r.status === 'unexpectedly passing' ||
        r.warnings?.length,
    ).length,
    notSetUp: is('could not set up'),
    notFinished: is('could not finish'),
    expectedFailures: is('expected failure'),
    unexpectedPasses: is('unexpectedly passing'),
    notSelected: is('not selected'),
  };
}

/** The verdict over the rules selected; `broken`: the run broke (a run error, interrupted, timed out). */
export function verdictOf(rules: readonly RuleOutcome[], broken: boolean): Verdict {
  const must = (status: RuleStatus) =>
    rules.filter((r) => r.status === status && failureFailsRun(r.level)).length;
  const mustFailed = rules.filter((r) => statusOf(r.level, r.status) === 'failed').length;
  // An expected MUST failure is still a MUST failure: the verdict says so, the exit code does not.
  if (mustFailed > 0 || must('expected failure') > 0 || broken) return 'does not conform';
  return must('skipped') + must('could not set up') + must('could not finish') > 0
    ? 'incomplete'
    : 'conforms';
}
