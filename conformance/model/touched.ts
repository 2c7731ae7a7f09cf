/**
 * A write that changed another user than the one it addresses, told from the list read before and after
 * it: which users it touched, and whether that is the first user of the list (an equality that always
 * holds: the first user matches any id). The rules (support/judged-users.ts) and the explorer
 * (explore/diagnose.ts) name such a write by these same functions.
 */
import type { DefectName } from './named-defects.ts';
import type { SeenUser } from './observe.ts';
import type { Operation } from './operations.ts';
import type { Disagreement } from './signature.ts';
import { canonicalId } from './state.ts';

const sameFields = (a: SeenUser, b: SeenUser | undefined) =>
  !!b && a.name === b.name && a.profession === b.profession;

/**
 * Users other than the write's own that the write changed: for a POST, users that now carry its name
 * and profession; for a DELETE, users of the list before that are gone. (Other clients of a shared
 * target change users too: the POST's evidence is its own random text; a DELETE's is weaker.)
 */
export function othersTouched(
  before: readonly SeenUser[],
  after: readonly SeenUser[],
  op: Operation,
): Array<{ id: string; text: string }> {
  if (op.kind === 'post') {
    const own = canonicalId(op.user.id);
    return after
      .filter((u) => u.id !== own && u.name === op.user.name && u.profession === op.user.profession)
      .filter(
        (u) =>
          !sameFields(
            u,
            before.find((b) => b.id === u.id),
          ),
      )
      .map((u) => ({ id: u.id, text: `user ${u.id} changed` }));
  }
  if (op.kind !== 'delete') return [];
  // Any user of the list before, the write's or not (the first of the list, say): asked only when the
  // DELETE's own effect or word is wrong, which another user's removal in that moment explains.
  const own = canonicalId(op.id);
  return before
    .filter((u) => u.id !== own && !after.some((a) => a.id === u.id))
    .map((u) => ({ id: u.id, text: `user ${u.id} removed` }));
}

/**
 * The defect another user's change names: the first user of the list (`firstUserTouched`) when that is
 * the one user changed, else `otherRecordTouched`.
 */
export const touchedFirst = (
  list: readonly SeenUser[] | undefined,
  touched: ReadonlyArray<{ id: string }>,
): Extract<DefectName, 'firstUserTouched' | 'otherRecordTouched'> =>
  touched.length === 1 && list?.[0] && touched[0]?.id === list[0].id
    ? 'firstUserTouched'
    : 'otherRecordTouched';

/** A finding another user's change explains: the write's own effect missing, or its word saying so. */
export const explainedByAnotherRecord = (d: Pick<Disagreement, 'signature'>): boolean =>
  (d.signature.aspect === 'state-change' && ['unchanged', 'not removed'].includes(d.signature.seen)) ||
  (d.signature.aspect === 'result-word' &&
    (d.signature.seen === 'success' || d.signature.seen === 'failure'));

/**
 * Users outside `own` (the ids a batch of writes addresses, a concurrent round's) that the list shows
 * removed or changed after them: the writes touched another user. (Other clients of a shared target
 * change users too: the evidence is as weak as a DELETE's above.)
 */
export function outsideTouched(
  before: readonly SeenUser[],
  after: readonly SeenUser[],
  own: ReadonlySet<string>,
): Array<{ id: string; text: string }> {
  return before
    .filter((u) => !own.has(u.id))
    .flatMap((u) => {
      const now = after.find((a) => a.id === u.id);
      if (!now) return [{ id: u.id, text: `user ${u.id} removed` }];
      return sameFields(u, now) ? [] : [{ id: u.id, text: `user ${u.id} changed` }];
    });
}
