import { escapeXmlText, XML_DECLARATION, xmlDocument, xmlDocumentOf } from '../http/xml.ts';
import type { User } from './model.ts';

/**
 * One `<user>` element; children in the order of the original service. Written directly (the same
 * bytes as `xmlElement('user', {id, name, profession})`): building an xml-js tree per user cost most
 * of the time of a GET by id and nearly all of a list (see the benchmark's notes).
 */
function buildUserElement(user: User): string {
  return `<user><id>${user.id}</id><name>${escapeXmlText(user.name)}</name><profession>${escapeXmlText(user.profession)}</profession></user>`;
}

/**
 * Rendered elements by user object. The store hands out the same (frozen) object for a user as long
 * as its stored value is unchanged, so an unchanged user is rendered once; a changed one is a new
 * object. Entries go when their user object is no longer referenced (no growth with requests).
 */
const elements = new WeakMap<User, string>();

export function renderUserElement(user: User): string {
  let element = elements.get(user);
  if (element === undefined) {
    element = buildUserElement(user);
    if (Object.isFrozen(user)) elements.set(user, element);
  }
  return element;
}

export function renderUser(user: User): string {
  return XML_DECLARATION + renderUserElement(user);
}

/** The last list rendered, by the identity of its user objects (the whole document is reused when none changed). */
let lastList: { users: readonly User[]; document: string } | undefined;

function sameUsers(a: readonly User[], b: readonly User[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i] || !Object.isFrozen(a[i])) return false;
  return true;
}

/** `<users>` wrapping each user, in the order given (the store sorts by id). */
export function renderUserList(users: readonly User[]): string {
  if (lastList && sameUsers(users, lastList.users)) return lastList.document;
  let children = '';
  for (const user of users) children += renderUserElement(user);
  const document = xmlDocumentOf('users', children);
  lastList = { users: [...users], document };
  return document;
}

const SUCCESS = xmlDocument('result', 'success');
const FAILURE = xmlDocument('result', 'failure');

export function renderResult(success: boolean): string {
  return success ? SUCCESS : FAILURE;
}

export const OPERATIONS = ['GET', 'PUT', 'POST', 'DELETE'] as const;

export function renderOperations(): string {
  return xmlDocument('operations', OPERATIONS.join(', '));
}
