/**
 * What a rule is (`Rule`): its level, section and axes, and what a level does to an outcome
 * (`statusOf`). Below the areas (rules/<area>.ts) and the catalogue (rules/index.ts) that declare rules
 * with them, so that neither imports the other.
 */
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
