/**
 * Findings deduplicated in one place: a defect is reported once per signature, whichever rule,
 * sequence or round meets it. The rules keep each signature of a rule once (support/judged.ts
 * RuleModel); the explorer reports each signature once and sets aside the signatures reported already
 * (explore/explore.ts): its sequences and rounds go past a disagreement with one of them.
 */
import { type Signature, signatureKey } from './signature.ts';

/** The signatures met already, by key (signatureKey). */
export type Known = ReadonlySet<string>;

type Signed = { signature: Signature };

/** Whether `d`'s signature was met already. */
export const isKnown = (known: Known, d: Signed): boolean => known.has(signatureKey(d.signature));

/** Those of `found` whose signature was not met already. */
export const notKnown = <T extends Signed>(known: Known, found: readonly T[]): T[] =>
  found.filter((d) => !isKnown(known, d));

/**
 * `found`, unless one of them was met already: then none, as what else an answer that meets a known
 * defect shows is that defect's doing too (the same answer seen from another side).
 */
export const unlessKnown = <T extends Signed>(known: Known, found: readonly T[]): T[] =>
  found.some((d) => isKnown(known, d)) ? [] : [...found];

/** Those of `found` met for the first time (each signature once), now added to `known`. */
export function firstSightings<T extends Signed>(known: Set<string>, found: readonly T[]): T[] {
  const out: T[] = [];
  for (const d of found) {
    const key = signatureKey(d.signature);
    if (known.has(key)) continue;
    known.add(key);
    out.push(d);
  }
  return out;
}
