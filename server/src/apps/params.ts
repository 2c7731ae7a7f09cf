import { randomUUID } from 'node:crypto';
import { NotFoundError } from '../errors.ts';

const APP_ID = /^[A-Za-z0-9._-]{1,100}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** An app is a namespace: any 1-100 characters of `[A-Za-z0-9._-]`; anything else names nothing (404). */
export function parseAppId(raw: unknown): string {
  const value = String(raw ?? '');
  if (!APP_ID.test(value))
    throw new NotFoundError('no such app: an app id is 1-100 characters of A-Z a-z 0-9 . _ -');
  return value;
}

/** A resource id from the path: a UUID (matched case-insensitively, stored lower-case); else 404. */
export function parseResourceId(raw: unknown, kind: string): string {
  const value = String(raw ?? '').toLowerCase();
  if (!UUID.test(value))
    throw new NotFoundError(`no ${kind} has the id ${JSON.stringify(String(raw ?? '').slice(0, 60))}`);
  return value;
}

/** A new resource id: a lower-case UUID v4. */
export function newId(): string {
  return randomUUID();
}

/**
 * A timestamp in ISO 8601 UTC with milliseconds (`2026-01-01T12:00:00.000Z`). Given the previous
 * value, the result is strictly later, even when the clock has not moved (or moved back) since then.
 */
export function timestamp(after?: string): string {
  const now = Date.now();
  const previous = after === undefined ? Number.NEGATIVE_INFINITY : Date.parse(after);
  return new Date(Math.max(now, previous + 1)).toISOString();
}
