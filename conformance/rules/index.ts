/**
 * The rule catalogue: every check the suite makes, as data, one record per rule with named fields,
 * declared area by area in rules/<area>.ts (the section and the spec file once per area) and gathered
 * here in `RULES` (`Rule`). Stable ids (never reuse or renumber one), an RFC 2119 level, the section of the spec it
 * comes from, the sentence it checks, the anchors of the statements of docs/SPEC.md (in the
 * user-service repository) that it checks, the axes it covers and the spec file whose test checks it.
 *
 * - MUST: what SPEC.md states. A failure fails the run.
 * - SHOULD: sound HTTP practice the spec implies. A failure is a warning; the run still passes.
 * - INFO: what the spec leaves open ("not shown"). The suite records what the implementation does and
 *   never fails it.
 *
 * What a level does to an outcome is written once, in `statusOf` (rules/types.ts): the rule runner (support/rule.ts),
 * the reporter and the self-test use it.
 */
import { COLLECTION } from './collection.ts';
import { DELETE } from './delete.ts';
import { DOMAINS } from './domains.ts';
import { EXACTNESS } from './exactness.ts';
import { EXPLORE } from './explore.ts';
import { FRESHNESS } from './freshness.ts';
import { GET } from './get.ts';
import { HEAD } from './head.ts';
import { HTTP_PRACTICE } from './http-practice.ts';
import { IDENTITY } from './identity.ts';
import { LIST } from './list.ts';
import { OPEN_POINTS } from './open-points.ts';
import { OPTIONS } from './options.ts';
import { POST } from './post.ts';
import { PUT } from './put.ts';
import { RACE } from './race.ts';
import { REPRESENTATIONS } from './representations.ts';
import { SEQUENCE } from './sequence.ts';
import { SIZE } from './size.ts';
import type { Rule } from './types.ts';
import { WORKERS } from './workers.ts';

export {
  AXES,
  type Axis,
  failureFailsRun,
  type Level,
  type Rule,
  SECTIONS,
  type Section,
  statusOf,
} from './types.ts';

/** Every rule, area by area (conformance/rules/<area>.ts: the section and spec file declared once per area). */
export const RULES: readonly Rule[] = [
  ...COLLECTION,
  ...LIST,
  ...GET,
  ...PUT,
  ...POST,
  ...DELETE,
  ...OPTIONS,
  ...HEAD,
  ...REPRESENTATIONS,
  ...SEQUENCE,
  ...OPEN_POINTS,
  ...DOMAINS,
  ...WORKERS,
  ...HTTP_PRACTICE,
  ...RACE,
  ...EXACTNESS,
  ...IDENTITY,
  ...SIZE,
  ...FRESHNESS,
  ...EXPLORE,
];

/**
 * Statements of docs/SPEC.md that no rule checks, and why. The self-test fails on a statement that has
 * neither a rule nor a reason here (see tools/coverage.ts).
 */
export const UNCHECKED: Readonly<Record<string, string>> = {
  'SCOPE-1': 'describes what the document covers; the statements below are the ones checked',
  'AUTH-1':
    'nothing to check: the suite sends no credentials, so every rule would fail on a service that required some',
  'EVT-1': 'nothing is specified that a client could observe',
  'VER-1': 'every rule addresses the unversioned paths; there is no versioned alternative to tell apart',
};

export const RULES_BY_ID: ReadonlyMap<string, Rule> = new Map(RULES.map((rule) => [rule.id, rule]));

export function ruleById(id: string): Rule {
  const rule = RULES_BY_ID.get(id);
  if (!rule) throw new Error(`unknown rule id ${id}`);
  return rule;
}
