/**
 * The readers this worker knows to lie (support/readers.ts runs the check that finds them): kept apart,
 * with no imports of the support code, so that the readers (support/http.ts Api.readUser, the
 * read-backs) can ask without an import circle.
 */
import { type Liar, type Reader, type SeenUser, throughBothLiars } from '../model/index.ts';
import type { Exchange } from './exchange.ts';

let known: readonly Liar[] = [];
let shownBy: readonly Exchange[] = [];

/** The reader `reader`, when it is known to lie. */
export const lying = (reader: Reader): Liar | undefined => known.find((l) => l.reader === reader);

/** Every liar known to this worker (none until the check ran, or when none lies). */
export const liars = (): readonly Liar[] => known;

/** The check's requests, in order: what showed the liars (the explorer's evidence of them). */
export const checkExchanges = (): readonly Exchange[] => shownBy;

/**
 * The user `id` when both readers lie (model throughBothLiars), by what GET by id `served` and the list
 * `listed` show, as far as the list's own lie lets its fields be taken.
 */
export const throughBothReaders = (
  id: string,
  served: SeenUser | null | undefined,
  listed: readonly SeenUser[] | undefined,
): SeenUser | null | undefined => throughBothLiars(id, served, listed, lying('GET list')?.defect);

export function setLiars(found: readonly Liar[], exchanges: readonly Exchange[]): void {
  known = found;
  shownBy = exchanges;
}
