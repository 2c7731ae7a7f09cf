import { FORM_TYPE, formBody } from '../../../testing/form.ts';
import { request, sendRaw } from '../../../testing/http.ts';
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

/** What the tests send. */
export interface CallInit {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
}

/**
 * One request through the test kit's client, on a new connection (so requests spread over the
 * processes of a PROCESSES=N server), with only the headers given: none of fetch's defaults
 * (Accept, User-Agent, a text/plain Content-Type for a string body), which the server reads none of.
 */
export async function call(url: string, init: CallInit = {}): Promise<Answer> {
  const reply = await request(url, init);
  // From the header lines, so that a repeated header reads as one, its values joined with ', '.
  const headers = new Headers();
  for (let i = 0; i < reply.rawHeaders.length; i += 2)
    headers.append(reply.rawHeaders[i] as string, reply.rawHeaders[i + 1] as string);
  const answer = { status: reply.status, headers, body: reply.body };
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
