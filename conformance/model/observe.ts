/**
 * An answer as the model reads it: status, media type, and the body in the form the model compares
 * (a result word, a user, a list, JSON). Read leniently on purpose: an answer in the wrong
 * representation (JSON where XML is required) is still read, so that its media type is reported once
 * and what it says is judged as well, instead of one wrong representation hiding every other defect.
 */
import { canonicalId } from './state.ts';
import { childText, elements, parseXml, type XmlElement } from './xml.ts';

export interface SeenUser {
  /** Canonical when the id is an integer, else as written. */
  id: string;
  name?: string;
  profession?: string;
}

export type SeenBody =
  | { kind: 'empty' }
  | { kind: 'result'; word: string }
  | { kind: 'user'; user: SeenUser }
  | { kind: 'users'; users: SeenUser[]; wrapper: string }
  | { kind: 'operations'; text: string }
  | { kind: 'json'; value: unknown }
  | { kind: 'other'; root: string }
  | { kind: 'unreadable'; problem: string };

export interface Observed {
  status: number;
  /** Lower-case type/subtype, without parameters; undefined without a Content-Type. */
  mediaType?: string;
  charset?: string;
  representation: 'xml' | 'json' | 'none' | 'other';
  body: SeenBody;
  /** The body as it came (a BOM kept): where the spec fixes the bytes, they are judged (judge.ts judgeBytes). */
  text: string;
}

/** A 2xx status: the answer serves what was asked. */
export const is2xx = (status: number): boolean => status >= 200 && status <= 299;

/** The user a 2xx answer serves, else undefined. */
export const servedUser = (o: Observed): SeenUser | undefined =>
  is2xx(o.status) && o.body.kind === 'user' ? o.body.user : undefined;

/**
 * What an answer of GET by id serves: a user (whatever its id), null for none (not 2xx, or an empty
 * body), undefined when it cannot be read as either.
 */
export const servedOrNone = (o: Observed): SeenUser | null | undefined =>
  servedUser(o) ?? (!is2xx(o.status) || o.body.kind === 'empty' ? null : undefined);

/** The users a 2xx list answer serves, else undefined (not a list, or not readable). */
export const servedUsers = (o: Observed): SeenUser[] | undefined =>
  is2xx(o.status) && o.body.kind === 'users' ? o.body.users : undefined;

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  text: string;
}

const idOf = (raw: string) => canonicalId(raw) ?? raw.trim();

function userOfXml(element: XmlElement): SeenUser {
  const id = childText(element, 'id');
  const name = childText(element, 'name');
  const profession = childText(element, 'profession');
  return {
    id: id === undefined ? '' : idOf(id),
    ...(name === undefined ? {} : { name }),
    ...(profession === undefined ? {} : { profession }),
  };
}

function userOfJson(value: unknown): SeenUser | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || !('id' in value))
    return undefined;
  const v = value as Record<string, unknown>;
  return {
    id: idOf(String(v.id)),
    ...(typeof v.name === 'string' ? { name: v.name } : {}),
    ...(typeof v.profession === 'string' ? { profession: v.profession } : {}),
  };
}

function xmlBody(text: string): SeenBody {
  let root: XmlElement;
  try {
    root = parseXml(text).root;
  } catch (err) {
    return { kind: 'unreadable', problem: `not well-formed XML: ${(err as Error).message}` };
  }
  const inner = root.children
    .map((c) => (typeof c === 'string' ? c : '<element>'))
    .join('')
    .trim();
  if (root.name === 'result') return { kind: 'result', word: inner };
  if (root.name === 'operations') return { kind: 'operations', text: inner };
  if (root.name === 'user') return { kind: 'user', user: userOfXml(root) };
  const users = elements(root, 'user');
  if (users.length || elements(root).length === 0)
    return { kind: 'users', users: users.map(userOfXml), wrapper: root.name };
  return { kind: 'other', root: root.name };
}

function jsonBody(value: unknown): SeenBody {
  if (Array.isArray(value)) {
    const users = value.map(userOfJson);
    if (users.every((u) => u !== undefined))
      return { kind: 'users', users: users as SeenUser[], wrapper: '(JSON array)' };
    return { kind: 'json', value };
  }
  if (typeof value === 'object' && value !== null) {
    const v = value as Record<string, unknown>;
    if (typeof v.result === 'string' && Object.keys(v).length === 1)
      return { kind: 'result', word: v.result.trim() };
    if (Array.isArray(v.users)) return jsonBody(v.users);
    if (typeof v.operations === 'string') return { kind: 'operations', text: v.operations };
    if ('name' in v && 'profession' in v) {
      const user = userOfJson(v);
      if (user) return { kind: 'user', user };
    }
  }
  return { kind: 'json', value };
}

/** Reads an answer (a HEAD answer: the bytes after its headers, if any). */
export function observe(answer: RawAnswer): Observed {
  const raw = answer.headers['content-type'];
  const [type, ...params] = (raw ?? '').split(';');
  const mediaType = raw ? (type as string).trim().toLowerCase() : undefined;
  const charset = params
    .map((p) => /^\s*charset\s*=\s*"?([^";]+)"?/i.exec(p)?.[1])
    .find(Boolean)
    ?.toLowerCase();
  const text = answer.text;
  const base = {
    status: answer.status,
    text,
    ...(mediaType ? { mediaType } : {}),
    ...(charset ? { charset } : {}),
  };
  if (!text.trim()) return { ...base, representation: 'none', body: { kind: 'empty' } };
  const looksJson = /^\s*[[{]/.test(text);
  if (looksJson) {
    try {
      return { ...base, representation: 'json', body: jsonBody(JSON.parse(text)) };
    } catch {}
  }
  if (/^\s*(\uFEFF)?</.test(text)) return { ...base, representation: 'xml', body: xmlBody(text) };
  return {
    ...base,
    representation: 'other',
    body: { kind: 'unreadable', problem: `neither XML nor JSON: ${JSON.stringify(text.slice(0, 60))}` },
  };
}

/**
 * An answer as the suite's clients record it, the rules' (support/http.ts) and the explorer's
 * (explore/client.ts) alike: status, Content-Type and the body decoded as UTF-8 (a BOM kept; of a HEAD
 * answer, the bytes after its headers).
 */
export interface Answer {
  status: number;
  /** The Content-Type header as sent, or undefined. */
  contentType: string | undefined;
  body: string;
  /** The body's bytes were not valid UTF-8 (`body` then holds replacement characters). */
  notUtf8?: true;
}

/** Whether `bytes` are valid UTF-8. */
export function validUtf8(bytes: Uint8Array): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/**
 * An answer as the model reads it, for the rules and the explorer alike: a body that is not valid UTF-8
 * (as it declares, or by default) is unreadable.
 */
export function observed(answer: Answer): Observed {
  const seen = observe({
    status: answer.status,
    headers: answer.contentType === undefined ? {} : { 'content-type': answer.contentType },
    text: answer.body,
  });
  if (!answer.notUtf8 || seen.body.kind === 'empty' || (seen.charset && seen.charset !== 'utf-8'))
    return seen;
  return { ...seen, body: { kind: 'unreadable', problem: 'not valid UTF-8' } };
}
