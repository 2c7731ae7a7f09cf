/**
 * A user as answers show it, judged alike by the answer judge (judge.ts) and the effect judge
 * (effects.ts): kept below both so that neither imports the other.
 */
import { named } from './named-defects.ts';
import type { SeenUser } from './observe.ts';
import { type Disagreement, disagreement } from './signature.ts';
import { DEFAULT_USER_ID, type ModelUser } from './state.ts';

/** A user as an answer shows it: `<user><id>7</id><name>…</name>…` in words. */
export const showUser = (u: SeenUser | ModelUser | undefined | null): string =>
  u ? `user ${u.id} (${JSON.stringify(u.name)}, ${JSON.stringify(u.profession)})` : 'no user';

/** Whether `seen` shows the model's user: the fields the model fixes are equal. */
export const sameUser = (model: ModelUser, seen: SeenUser | undefined | null): boolean =>
  !!seen &&
  seen.id === model.id &&
  (model.name === undefined ? seen.name !== undefined : seen.name === model.name) &&
  (model.profession === undefined ? seen.profession !== undefined : seen.profession === model.profession);

/**
 * RES-USER-1: a user served without its name or profession element (a form without the field stored
 * as it came): one defect of the user's representation, whichever answer shows it.
 */
export function incompleteUser(where: string, seen: SeenUser): Disagreement | undefined {
  const missing = (['name', 'profession'] as const).filter((f) => seen[f] === undefined);
  if (!missing.length) return undefined;
  // One signature whichever element it lacks: one defect (the form's fields stored as they came).
  return disagreement(
    'user answer',
    'body-shape',
    'element missing',
    `${where}: user ${seen.id} is served without the element(s) ${missing.join(', ')} (RES-USER-1: a user has id, name and profession, each once)`,
  );
}

/** SVC-11: a read of an emptied collection brings the default user back. */
export const DEFAULT_BACK = (where: string) =>
  named(
    'defaultBack',
    `${where} emptied the collection, and the next read serves the default user ${DEFAULT_USER_ID} again`,
  );
