import { FORM_TYPE, formBody } from '../../../testing/form.ts';
import { sendRaw } from '../../../testing/http.ts';
import { openApiChecker } from './openapi-check.ts';

/**
 * Small helpers for talking to the service over a real socket. Every answer they receive is checked
 * against the OpenAPI description (openapi-check.ts): an undescribed route, status, header or field
 * fails the test that received it.
 */
export interface Answer {
  status: number;
  headers: Headers;
  body: string;
}

export async function call(url: string, init: RequestInit = {}): Promise<Answer> {
  const res = await fetch(url, init);
  const answer = { status: res.status, headers: res.headers, body: await res.text() };
  openApiChecker().check(init.method ?? 'GET', url, answer.status, answer.headers, answer.body);
  return answer;
}

export function sendForm(
  url: string,
  method: 'PUT' | 'POST',
  fields: Record<string, string | number> | string,
) {
  const body = typeof fields === 'string' ? fields : formBody(fields);
  return call(url, { method, headers: { 'Content-Type': FORM_TYPE }, body });
}

/** The spec's exact bytes (no XML declaration), written here as the spec gives them: the tests' oracle. */
export const SUCCESS = '<result>success</result>';
export const FAILURE = '<result>failure</result>';

export function userXml(id: number, name: string, profession: string): string {
  return `<user><id>${id}</id><name>${name}</name><profession>${profession}</profession></user>`;
}

/**
 * Writes raw bytes on one connection and returns everything the server sends until it closes the
 * connection (latin1, byte for byte). `halfClose`: end our side after the bytes (a parser error
 * closes the connection anyway); otherwise the requests themselves must ask for the close.
 */
export async function rawExchange(port: number, bytes: string, { halfClose = true } = {}): Promise<string> {
  const result = await sendRaw(port, bytes, { end: halfClose });
  if (result.error) throw result.error;
  return result.data.toString('latin1');
}
