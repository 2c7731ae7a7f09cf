/**
 * The pairs and triples of single causes the self-test runs together (issue 45: any pair or triple of
 * single defects is reported as exactly the union of their single reports). Pure: the same seed gives
 * the same sample on any machine, so a failing sample is replayed with its seed.
 */
import type { Rng } from '../explore/prng.ts';

/** Every combination of `size` names, each sorted, in a stable order. */
export function allCombinations(names: readonly string[], size: number): string[][] {
  const sorted = [...names].sort();
  const out: string[][] = [];
  const pick = (from: number, chosen: string[]) => {
    if (chosen.length === size) {
      out.push(chosen);
      return;
    }
    for (let i = from; i < sorted.length; i++) pick(i + 1, [...chosen, sorted[i] as string]);
  };
  pick(0, []);
  return out;
}

/** `count` distinct combinations of `size` names drawn with `random` (all of them when there are fewer). */
export function sampleCombinations(
  names: readonly string[],
  size: number,
  count: number,
  random: Rng,
  /** The combinations that may be drawn (all by default). */
  keep: (combination: readonly string[]) => boolean = () => true,
): string[][] {
  const all = allCombinations(names, size).filter(keep);
  const chosen: string[][] = [];
  const wanted = Math.min(count, all.length);
  while (chosen.length < wanted) {
    const [taken] = all.splice(random.int(all.length), 1);
    if (taken) chosen.push(taken);
  }
  return chosen;
}

/** The report a combination must give: the union of its members' single reports, each signature once. */
export const unionOf = (reports: ReadonlyArray<readonly string[]>): string[] =>
  [...new Set(reports.flat())].sort();

/** What the judging of a combination reads of the suite's report (summary.json). */
export interface CombinationReport {
  /** Each defect by its id and signature (`operation | aspect | seen`). */
  defects: ReadonlyArray<{ id: string; key: string }>;
  /** `defect`: the id of the defect a rule skipped as `could not check: …` names (report/summary.ts). */
  rules: ReadonlyArray<{ id: string; status: string; reason?: string; defect?: string }>;
}

/** A defect the combination must show, and the rules that show it (a single cause's report's rules). */
export interface ExpectedDefect {
  key: string;
  caughtBy: readonly string[];
  /** The cause in the combination that hides this defect wherever the suite could look (MASKS in impl/defects.mjs). */
  hiddenBy?: string;
}

export interface CombinationVerdict {
  /** Everything the report lists is expected, and every expected defect it leaves out is masked. */
  sound: boolean;
  /** Expected defects left out because every rule that shows them could not check for a listed defect. */
  masked: string[];
  /** Why the report is not sound: one line for each defect too many or missing and not masked. */
  reasons: string[];
}

/**
 * A combination's report against the union of its single causes' reports (issue 45): exactly the union,
 * except that a defect may be missing when another one masks it (no user can be created, so an
 * overwrite is never met): then each of its rules in the report says `could not check:`, naming a
 * defect the report lists (report/summary.ts gives the rule that defect's id); or when another cause
 * hides it wherever the suite could look (`hiddenBy`). A defect outside the union is never allowed.
 */
export function judgeCombination(
  expected: readonly ExpectedDefect[],
  report: CombinationReport,
  couldNotCheck: string,
): CombinationVerdict {
  const listedKeys = new Set(report.defects.map((d) => d.key));
  const listedIds = new Set(report.defects.map((d) => d.id));
  const expectedKeys = new Set(expected.map((d) => d.key));
  const reasons = [...listedKeys]
    .filter((key) => !expectedKeys.has(key))
    .sort()
    .map((key) => `not expected: ${key}`);
  const masked: string[] = [];
  for (const { key, caughtBy, hiddenBy } of [...expected].sort((a, b) => a.key.localeCompare(b.key))) {
    if (listedKeys.has(key)) continue;
    if (hiddenBy) {
      masked.push(`${key} (hidden by ${hiddenBy})`);
      continue;
    }
    const rules = report.rules.filter((r) => caughtBy.includes(r.id));
    const unmasked = rules.filter(
      (r) =>
        // Skipped, or failed by the masking defect when it is of the rule's level (support/rule.ts).
        !(
          (r.status === 'skipped' || r.status === 'failed') &&
          r.reason?.replace(/^Error: /, '').startsWith(couldNotCheck) &&
          r.defect !== undefined &&
          listedIds.has(r.defect)
        ),
    );
    if (rules.length && !unmasked.length) masked.push(key);
    else
      reasons.push(
        rules.length
          ? `missing: ${key} (${unmasked.map((r) => `${r.id} ${r.status}${r.reason ? `: ${r.reason}` : ''}`).join('; ')})`
          : `missing: ${key} (none of ${caughtBy.join(', ') || 'its rules'} in the report)`,
      );
  }
  return { sound: !reasons.length, masked, reasons };
}
