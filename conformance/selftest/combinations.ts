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
