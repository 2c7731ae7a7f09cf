import { escapeXmlText, XML_DECLARATION, xmlDocumentOf, xmlElement } from '../http/xml.ts';
import type { User } from './model.ts';

/**
 * One `<user>` element; children in the order of the original service. Written directly (the same
 * bytes as `xmlElement('user', {id, name, profession})`): building an xml-js tree per user cost most
 * of the time of a GET by id and nearly all of a list (see the benchmark's notes).
 */
export function renderUserElement(user: User): string {
  return `<user><id>${user.id}</id><name>${escapeXmlText(user.name)}</name><profession>${escapeXmlText(user.profession)}</profession></user>`;
}

export function renderUser(user: User): string {
  return XML_DECLARATION + renderUserElement(user);
}

/** A list is written in pieces: this opening, the elements of each chunk, then LIST_CLOSE. */
export const LIST_OPEN = `${XML_DECLARATION}<users>`;
export const LIST_CLOSE = '</users>';

/** The `<user>` elements of users, in the order given. */
export function renderUserElements(users: readonly User[]): string {
  let elements = '';
  for (const user of users) elements += renderUserElement(user);
  return elements;
}

/** `<users>` wrapping each user, in the order given: the same bytes as LIST_OPEN + pieces + LIST_CLOSE. */
export function renderUserList(users: readonly User[]): string {
  return xmlDocumentOf('users', renderUserElements(users));
}

/**
 * The write answers and the operations element are exactly the spec's bytes, with no XML declaration:
 * the original service wrote them as plain strings, and its clients compare the string
 * (`<result>success</result>`, 24 bytes). The user and the list keep the declaration its XML binding wrote.
 */
export const RESULT_SUCCESS = xmlElement('result', 'success');
export const RESULT_FAILURE = xmlElement('result', 'failure');

export function renderResult(success: boolean): string {
  return success ? RESULT_SUCCESS : RESULT_FAILURE;
}

export const OPERATIONS = ['GET', 'PUT', 'POST', 'DELETE'] as const;

export const OPERATIONS_ELEMENT = xmlElement('operations', OPERATIONS.join(', '));
