import type { IncomingMessage } from 'node:http';
import { BadRequestError, InvalidParamsError } from '../errors.ts';
import { readBody, requireMediaType } from '../http/body.ts';

const utf8 = new TextDecoder('utf-8', { fatal: true });

export type JsonObject = Record<string, unknown>;

/**
 * Reads a JSON request body that must be an object: 415 unless the Content-Type is
 * `application/json` (charset, when given, UTF-8), 413 above the body limit, 400 when the bytes are
 * not UTF-8, not JSON, or not a JSON object.
 */
export async function readJsonObject(req: IncomingMessage): Promise<JsonObject> {
  requireMediaType(req, 'application/json');
  // readBody's malformed_body is answered as bad_request in JSON (the catalogue's `otherwise`).
  const body = await readBody(req);
  let value: unknown;
  try {
    value = JSON.parse(utf8.decode(body));
  } catch {
    throw new BadRequestError('bad_request', 'the request body is not valid JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new BadRequestError('bad_request', 'the request body must be a JSON object');
  }
  return value as JsonObject;
}

/**
 * Unknown fields are refused (422 naming the first one): a misspelt field would otherwise be ignored
 * silently and the change would not be the one the client meant. Read-only fields of the resource
 * (`id`, `created_at`, …) are refused the same way, with a message saying so.
 */
export function rejectUnknownFields(
  body: JsonObject,
  allowed: readonly string[],
  readOnly: readonly string[],
): void {
  for (const name of Object.keys(body)) {
    if (allowed.includes(name)) continue;
    const shown = name.length > 40 ? `${name.slice(0, 40)}…` : name;
    if (readOnly.includes(name)) throw new InvalidParamsError(name, `${name} is read-only and cannot be set`);
    throw new InvalidParamsError(name, `unknown field "${shown}"; allowed: ${allowed.join(', ')}`);
  }
}
