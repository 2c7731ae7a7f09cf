import { InvalidParamsError } from '../../errors.ts';
import { type JsonObject, rejectUnknownFields } from '../json.ts';

export interface Domain {
  id: string;
  hostname: string;
  created_at: string;
  updated_at: string;
}

export const HOSTNAME_MAX = 253;
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i;
const WRITABLE = ['hostname'] as const;
const READ_ONLY = ['id', 'created_at', 'updated_at'] as const;

/**
 * A host name as RFC 1123 defines it: dot-separated labels of 1-63 letters, digits and hyphens, not
 * starting or ending with a hyphen, at most 253 characters in all, no trailing dot. The last label
 * may not be all digits (that would be an IPv4 address, not a host name). Returned lower-case.
 */
export function parseHostname(value: unknown): string {
  if (typeof value !== 'string') throw new InvalidParamsError('hostname', 'hostname must be a string');
  if (value.length === 0) throw new InvalidParamsError('hostname', 'hostname must not be empty');
  if (value.length > HOSTNAME_MAX) {
    throw new InvalidParamsError('hostname', `hostname must be at most ${HOSTNAME_MAX} characters`);
  }
  // Checked before lower-casing: some non-ASCII letters lower-case to ASCII (U+212A KELVIN SIGN to k).
  const labels = value.split('.');
  if (!labels.every((label) => LABEL.test(label)) || /^[0-9]+$/.test(labels[labels.length - 1] ?? '')) {
    throw new InvalidParamsError(
      'hostname',
      'hostname must be dot-separated labels of 1-63 letters, digits or hyphens (RFC 1123), not starting or ending with a hyphen',
    );
  }
  return value.toLowerCase();
}

/** The body of POST and PATCH: exactly `{"hostname": …}`. */
export function hostnameFromBody(body: JsonObject): string {
  rejectUnknownFields(body, WRITABLE, READ_ONLY);
  if (!('hostname' in body)) throw new InvalidParamsError('hostname', 'hostname is required');
  return parseHostname(body.hostname);
}
