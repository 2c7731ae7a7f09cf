import { BadRequestError } from '../errors.ts';

/** The media type of the bodies parseForm reads. */
export const FORM_TYPE = 'application/x-www-form-urlencoded';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Decodes an `application/x-www-form-urlencoded` body into its name/value pairs, in order and with
 * repeats kept (so callers can reject duplicated fields). Unlike URLSearchParams, bytes that are not
 * UTF-8, raw or percent-encoded, are an error rather than silently replaced.
 */
export function parseForm(body: Uint8Array): Array<[string, string]> {
  let text: string;
  try {
    text = utf8.decode(body);
  } catch {
    throw new BadRequestError('malformed_body', 'the form body is not valid UTF-8');
  }
  const pairs: Array<[string, string]> = [];
  if (text === '') return pairs;
  for (const part of text.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const rawName = eq === -1 ? part : part.slice(0, eq);
    const rawValue = eq === -1 ? '' : part.slice(eq + 1);
    pairs.push([decodeComponent(rawName), decodeComponent(rawValue)]);
  }
  return pairs;
}

function decodeComponent(raw: string): string {
  const spaced = raw.includes('+') ? raw.replace(/\+/g, ' ') : raw;
  if (!spaced.includes('%')) return spaced; // nothing to decode (decodeURIComponent would return it as is)
  try {
    return decodeURIComponent(spaced);
  } catch {
    throw new BadRequestError(
      'malformed_body',
      'the form body has an invalid percent-escape or non-UTF-8 bytes',
    );
  }
}

/**
 * Collects exactly the `expected` fields from form pairs: each must appear once, and no other
 * field may appear (a misspelt field would otherwise be silently ignored).
 */
export function pickFormFields<K extends string>(
  pairs: Array<[string, string]>,
  expected: readonly K[],
): Record<K, string> {
  const fields: Record<string, string> = {};
  for (const [name, value] of pairs) {
    // Checked against `expected` first, so no name can reach Object.prototype (e.g. "__proto__").
    if (!(expected as readonly string[]).includes(name)) {
      throw new BadRequestError(
        'unknown_field',
        `unknown form field "${truncate(name)}"; expected ${expected.join(', ')}`,
      );
    }
    if (Object.hasOwn(fields, name))
      throw new BadRequestError('duplicate_field', `the form field "${name}" is given more than once`);
    fields[name] = value;
  }
  // Every name is expected and none repeats: as many pairs as expected names means none is missing.
  if (pairs.length !== expected.length) {
    const missing = expected.filter((name) => !Object.hasOwn(fields, name));
    throw new BadRequestError('missing_field', `missing form field(s): ${missing.join(', ')}`);
  }
  return fields as Record<K, string>;
}

function truncate(text: string, max = 40): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
