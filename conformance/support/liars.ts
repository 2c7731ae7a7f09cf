/**
 * The readers this worker knows to lie (support/readers.ts runs the check that finds them): kept apart,
 * with no imports of the support code, so that the readers (support/http.ts Api.readUser, the
 * read-backs) can ask without an import circle.
 */
import type { Liar, Reader } from '../model/index.ts';
import type { Exchange } from './exchange.ts';

let known: readonly Liar[] = [];
let shownBy: readonly Exchange[] = [];

/** The reader `reader`, when it is known to lie. */
export const lying = (reader: Reader): Liar | undefined => known.find((l) => l.reader === reader);

/** Every liar known to this worker (none until the check ran, or when none lies). */
export const liars = (): readonly Liar[] => known;

/** The check's requests, in order: what showed the liars (the explorer's evidence of them). */
export const checkExchanges = (): readonly Exchange[] => shownBy;

export function setLiars(found: readonly Liar[], exchanges: readonly Exchange[]): void {
  known = found;
  shownBy = exchanges;
}
