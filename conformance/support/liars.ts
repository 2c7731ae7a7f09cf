/**
 * The readers this worker knows to lie (support/readers.ts runs the check that finds them): kept apart,
 * with no imports of the support code, so that the readers (support/http.ts Api.readUser, the
 * read-backs) can ask without an import circle.
 */
import type { Liar, Reader } from '../model/index.ts';

let known: readonly Liar[] = [];

/** The reader `reader`, when it is known to lie. */
export const lying = (reader: Reader): Liar | undefined => known.find((l) => l.reader === reader);

/** Every liar known to this worker (none until the check ran, or when none lies). */
export const liars = (): readonly Liar[] => known;

export function setLiars(found: readonly Liar[]): void {
  known = found;
}
