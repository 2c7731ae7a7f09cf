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
 * What a level does to an outcome is written once, in `statusOf`: the rule runner (support/rule.ts),
 * the reporter and the self-test use it.
 */
import { COLLECTION } from './rules/collection.ts';
import { DELETE } from './rules/delete.ts';
import { DOMAINS } from './rules/domains.ts';
import { EXACTNESS } from './rules/exactness.ts';
import { EXPLORE } from './rules/explore.ts';
import { FRESHNESS } from './rules/freshness.ts';
import { GET } from './rules/get.ts';
import { HEAD } from './rules/head.ts';
import { HTTP_PRACTICE } from './rules/http-practice.ts';
import { IDENTITY } from './rules/identity.ts';
import { LIST } from './rules/list.ts';
import { OPEN_POINTS } from './rules/open-points.ts';
import { OPTIONS } from './rules/options.ts';
import { POST } from './rules/post.ts';
import { PUT } from './rules/put.ts';
import { RACE } from './rules/race.ts';
import { REPRESENTATIONS } from './rules/representations.ts';
import { SEQUENCE } from './rules/sequence.ts';
import { SIZE } from './rules/size.ts';
import { WORKERS } from './rules/workers.ts';

export type Level = 'MUST' | 'SHOULD' | 'INFO';

/**
 * What an outcome of a rule of `level` counts as: a failed MUST is `failed` (it fails the run), a
 * failed SHOULD a `warning` (the run still passes), and an INFO rule is `info` whatever happened (what
 * it saw is recorded, never failed). A passed MUST or SHOULD is `passed`; any other outcome (skipped,
 * could not set up, expected failure, ...) is what it is, whatever the level.
 */
export function statusOf<Outcome extends string>(
  level: Level,
  outcome: Outcome,
): Outcome | 'passed' | 'failed' | 'warning' | 'info' {
  if (outcome !== 'passed' && outcome !== 'failed') return outcome;
  if (level === 'INFO') return 'info';
  if (outcome === 'passed') return 'passed';
  return level === 'SHOULD' ? 'warning' : 'failed';
}

/** Whether a failure of a rule of `level` fails the run (MUST), rather than warn or be recorded. */
export const failureFailsRun = (level: Level): boolean => statusOf(level, 'failed') === 'failed';

/**
 * The axes along which the consequences of the MUST statements are checked (docs/coverage.md lists
 * them per rule): races of the writes, exactness of what is stored, one user per integer however it
 * is written, collections beyond common caps, and reads right after a change.
 */
export type Axis = 'concurrency' | 'exactness' | 'identity' | 'size' | 'freshness';
export const AXES: Readonly<Record<Axis, string>> = {
  concurrency: 'every write raced against itself and against the others, with the outcome the spec allows',
  exactness:
    'what is stored is what was sent: white space at either end, case, Unicode normalisation forms, the longest values accepted',
  identity:
    "an integer id is one user however it is written, where the implementation accepts the writing (the suite sends leading zeros and a plus sign: the writings integer parsers commonly accept, Java's Integer.parseInt of the original service among them)",
  size: 'collections beyond the sizes implementations commonly cap at (1,000 and 10,000 users), within the time of one rule (90 s unless --timeout says otherwise)',
  freshness: 'a read right after a change, through every read path (list, by id, HEAD), sees it',
};

export const SECTIONS = [
  'A. Collection and default user',
  'A.1 GET list',
  'A.2 GET by id',
  'A.3 PUT (create)',
  'A.4 POST (update)',
  'A.5 DELETE',
  'A.6 OPTIONS',
  'A.7 HEAD',
  'A. Representations: XML and forms',
  'A. Known test sequence',
  'A. Open points (recorded)',
  'Consequences along axes',
  'B. Domains (JSON)',
  'B. Workers (JSON, asynchronous)',
  'HTTP practice',
] as const;
export type Section = (typeof SECTIONS)[number];

export interface Rule {
  /** Stable: never reused or renumbered. */
  id: string;
  level: Level;
  section: Section;
  /** Short title shown in test names and reports. */
  title: string;
  /** The sentence of SPEC.md (or the practice) the rule checks. */
  spec: string;
  /** Anchors of the statements of docs/SPEC.md the rule checks (`A-R3.2`): a violation fails the rule. */
  statements: readonly string[];
  /**
   * What the rule requires beyond a running target: a fresh instance (empty collection) or a restart.
   * Without a way to get one (a start command), such a rule is skipped with the reason, never passed.
   */
  needs?: 'fresh' | 'restart';
  /** The axes of consequences it covers (docs/coverage.md), if any. */
  axes?: readonly Axis[];
  /** The spec file whose `rule(id, …)` test checks it, relative to the package's source folder. */
  file: `tests/${string}.spec.ts`;
}

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
