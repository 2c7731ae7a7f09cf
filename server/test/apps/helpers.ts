import { expect } from 'chai';
import { call as checkedCall } from '../support/http.ts';

/** Helpers for the /apps tests: requests over a real socket (checked against the OpenAPI description), and the formats every answer must have. */
export const JSON_TYPE = 'application/json;charset=utf-8';
export const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
/** ISO 8601 UTC with milliseconds, as the service writes it. */
export const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed body (undefined when it is not JSON). */
  // biome-ignore lint/suspicious/noExplicitAny: tests read the JSON answers field by field
  body: any;
}

export type Body = unknown | { raw: string | Uint8Array; type?: string | undefined };

function isRaw(body: Body): body is { raw: string | Uint8Array; type?: string } {
  return typeof body === 'object' && body !== null && 'raw' in body;
}

/** Sends a request; a body is sent as JSON unless given `{ raw, type }`. */
export async function call(base: string, method: string, path: string, body?: Body): Promise<Answer> {
  const headers: Record<string, string> = {};
  let payload: string | Uint8Array | undefined;
  if (body !== undefined) {
    if (isRaw(body)) {
      payload = body.raw;
      if (body.type !== undefined) headers['Content-Type'] = body.type;
    } else {
      payload = JSON.stringify(body);
      headers['Content-Type'] = 'application/json';
    }
  }
  const {
    status,
    headers: answerHeaders,
    body: text,
  } = await checkedCall(`${base}${path}`, {
    method,
    headers,
    body: payload,
  });
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status, headers: answerHeaders, text, body: parsed };
}

/** A JSON answer with the exact content type and status. */
export function expectJson(answer: Answer, status: number): void {
  expect(answer.status, answer.text).to.equal(status);
  expect(answer.headers.get('content-type')).to.equal(JSON_TYPE);
}

/** A JSON error: `{"id", "message"}` (plus `field` on 422) with the matching status. */
export function expectError(answer: Answer, status: number, id: string, field?: string): void {
  expectJson(answer, status);
  expect(answer.body.id).to.equal(id);
  expect(answer.body.message).to.be.a('string').and.not.equal('');
  if (status === 422) {
    expect(Object.keys(answer.body).sort()).to.deep.equal(['field', 'id', 'message']);
    if (field !== undefined) expect(answer.body.field).to.equal(field);
  } else {
    expect(Object.keys(answer.body).sort()).to.deep.equal(['id', 'message']);
  }
}

/** A timestamp in the service's format, within [from, to]. */
export function expectTimestamp(value: unknown, from: number, to: number): number {
  expect(value).to.be.a('string').and.match(ISO_UTC);
  const ms = Date.parse(value as string);
  expect(new Date(ms).toISOString()).to.equal(value);
  expect(ms).to.be.within(from, to);
  return ms;
}

/** Polls `check` until it returns true, failing after `timeoutMs`. */
export async function waitFor(
  what: string,
  check: () => Promise<boolean>,
  timeoutMs = 5_000,
  everyMs = 25,
): Promise<number> {
  const start = Date.now();
  for (;;) {
    if (await check()) return Date.now() - start;
    if (Date.now() - start > timeoutMs)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
