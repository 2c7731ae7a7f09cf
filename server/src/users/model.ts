import { DEFAULTS } from '../defaults.ts';
import { BadRequestError } from '../errors.ts';
import { pickFormFields } from '../http/form.ts';
import { isXmlText } from '../http/xml.ts';

export interface User {
  id: number;
  name: string;
  profession: string;
}

/** Created once, atomically, the first time the collection is used (as in the original service). */
export const DEFAULT_USER: User = { id: 1, name: 'Mahesh', profession: 'Teacher' };

/** The original service used a Java `int`. */
export const USER_ID_MIN = -2_147_483_648;
export const USER_ID_MAX = 2_147_483_647;
/** Limit for name and profession, in characters (code points). */
export const USER_TEXT_MAX = DEFAULTS.userTextMaxChars;

const USER_FIELDS = ['id', 'name', 'profession'] as const;

/** Parses a user id: a decimal integer in the signed 32-bit range; leading zeros are allowed (`007` is 7). */
export function parseUserId(raw: string): number {
  if (!/^-?[0-9]{1,20}$/.test(raw)) {
    throw new BadRequestError('invalid_id', 'the user id must be a decimal integer');
  }
  const id = Number(raw);
  if (id < USER_ID_MIN || id > USER_ID_MAX) {
    throw new BadRequestError('invalid_id', `the user id must be between ${USER_ID_MIN} and ${USER_ID_MAX}`);
  }
  return id === 0 ? 0 : id; // no -0
}

function checkText(field: 'name' | 'profession', value: string): string {
  if (value.trim() === '') throw new BadRequestError('invalid_field', `${field} must not be empty`);
  // Code points never outnumber UTF-16 units, so only a long string needs counting.
  if (value.length > USER_TEXT_MAX && [...value].length > USER_TEXT_MAX) {
    throw new BadRequestError('invalid_field', `${field} must be at most ${USER_TEXT_MAX} characters`);
  }
  if (!isXmlText(value)) {
    throw new BadRequestError('invalid_field', `${field} contains characters that XML 1.0 cannot carry`);
  }
  return value;
}

/**
 * Builds a user from decoded form pairs: exactly the fields id, name and profession, once each.
 * When the id is also in the path, the form's id must name the same user.
 */
export function userFromForm(pairs: Array<[string, string]>, idFromPath?: number): User {
  const fields = pickFormFields(pairs, USER_FIELDS);
  const id = parseUserId(fields.id);
  if (idFromPath !== undefined && id !== idFromPath) {
    throw new BadRequestError(
      'id_mismatch',
      `the form id ${id} differs from the id ${idFromPath} in the path`,
    );
  }
  return { id, name: checkText('name', fields.name), profession: checkText('profession', fields.profession) };
}

/** Form for the id-in-path routes: the id field may be left out, since the path names the user. */
export function userFromPathForm(pairs: Array<[string, string]>, idFromPath: number): User {
  const hasId = pairs.some(([name]) => name === 'id');
  return userFromForm(hasId ? pairs : [['id', String(idFromPath)], ...pairs], idFromPath);
}
