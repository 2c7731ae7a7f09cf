import { xmlDocument, xmlDocumentOf, xmlElement } from '../http/xml.ts';
import type { User } from './model.ts';

/** One `<user>` element; children in the order of the original service. */
export function renderUserElement(user: User): string {
  return xmlElement('user', { id: user.id, name: user.name, profession: user.profession });
}

export function renderUser(user: User): string {
  return xmlDocument('user', { id: user.id, name: user.name, profession: user.profession });
}

/** `<users>` wrapping each user, in the order given (the store sorts by id). */
export function renderUserList(users: readonly User[]): string {
  let children = '';
  for (const user of users) children += renderUserElement(user);
  return xmlDocumentOf('users', children);
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
