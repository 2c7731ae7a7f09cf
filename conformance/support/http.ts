/**
 * A thin client over Playwright's APIRequestContext for one base URL, plus what the rules need to
 * read answers: media types, XML documents, result elements, users, form encoding, and a raw HTTP
 * request for checks the HTTP client hides (the bytes after a HEAD).
 */
import net from 'node:net';
import tls from 'node:tls';
import { type APIRequestContext, expect } from '@playwright/test';
import { setting } from './options.mjs';
import { childText, elements, parseXml, type XmlDocument, type XmlElement } from './xml.ts';

export interface Reply {
  method: string;
  path: string;
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  text: string;
}

export interface User {
  id: string;
  name: string;
  profession: string;
}

/** `a b+c` → `a+b%2Bc`: application/x-www-form-urlencoded as browsers write it. */
export function formEncode(fields: Record<string, string | number>): string {
  return Object.entries(fields)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v)).replace(/%20/g, '+')}`)
    .join('&');
}

export function show(reply: Reply): string {
  const body = reply.text.length > 300 ? `${reply.text.slice(0, 300)}…` : reply.text;
  return `${reply.method} ${reply.path} → ${reply.status} [${reply.headers['content-type'] ?? 'no Content-Type'}] ${body}`;
}

export interface MediaType {
  type: string;
  params: Record<string, string>;
}

export function mediaType(reply: Reply): MediaType | undefined {
  const raw = reply.headers['content-type'];
  if (!raw) return undefined;
  const [type, ...rest] = raw.split(';');
  const params: Record<string, string> = {};
  for (const part of rest) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    params[part.slice(0, eq).trim().toLowerCase()] = part
      .slice(eq + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1');
  }
  return { type: (type as string).trim().toLowerCase(), params };
}

export function expectXmlMediaType(reply: Reply): void {
  expect(mediaType(reply)?.type, `media type of ${show(reply)}`).toBe('application/xml');
}

export function expectJsonUtf8(reply: Reply): void {
  const media = mediaType(reply);
  expect(media?.type, `media type of ${show(reply)}`).toBe('application/json');
  expect(media?.params.charset?.toLowerCase(), `charset of ${show(reply)}`).toBe('utf-8');
}

/** Decodes the body with the charset of the Content-Type or of the XML declaration (UTF-8 by default). */
export function decodeBody(reply: Reply): string {
  let charset = mediaType(reply)?.params.charset;
  if (!charset) {
    const head = reply.body.subarray(0, 200).toString('latin1');
    charset = /^\uFEFF?<\?xml[^>]*encoding=["']([^"']+)["']/.exec(head)?.[1];
  }
  try {
    return new TextDecoder(charset || 'utf-8', { fatal: true }).decode(reply.body);
  } catch (err) {
    throw new Error(`the body is not valid ${charset || 'utf-8'}: ${(err as Error).message}`);
  }
}

export function xmlOf(reply: Reply): XmlDocument {
  try {
    return parseXml(decodeBody(reply));
  } catch (err) {
    throw new Error(`not well-formed XML: ${(err as Error).message}\n${show(reply)}`);
  }
}

export type Outcome = 'success' | 'failure';

/** The result element of a write answer; fails the rule when it is not exactly one of the two forms. */
export function resultOf(reply: Reply): Outcome {
  const doc = xmlOf(reply);
  const text = doc.root.children
    .map((c) => (typeof c === 'string' ? c : '<element>'))
    .join('')
    .trim();
  if (doc.root.name !== 'result' || (text !== 'success' && text !== 'failure')) {
    throw new Error(`expected <result>success</result> or <result>failure</result>: ${show(reply)}`);
  }
  return text;
}

export function userOf(element: XmlElement): User | undefined {
  const id = childText(element, 'id');
  const name = childText(element, 'name');
  const profession = childText(element, 'profession');
  if (id === undefined || name === undefined || profession === undefined) return undefined;
  return { id: id.trim(), name, profession };
}

/** Canonical decimal form of an id as read back (tolerates surrounding white space and leading zeros). */
export function sameId(a: string, b: string | number): boolean {
  return /^\s*[+-]?\d+\s*$/.test(a) && BigInt(a.trim()) === BigInt(String(b));
}

let counter = 0;
/** A random, high id, unlikely to be used by anybody else (and within a signed 32-bit int). */
export function randomId(): number {
  counter = (counter + 1) % 1000;
  return 1_000_000_000 + Math.floor(Math.random() * 1_100_000) * 1000 + counter;
}

export function randomText(prefix: string): string {
  return `${prefix}-${Math.random().toString(36).slice(2, 10)}`;
}

/** One request and its answer, as a report shows them: enough to read and to replay (`curl`). */
export interface Exchange {
  request: { method: string; url: string; headers: Record<string, string>; body?: string };
  response: {
    status: number;
    headers: Record<string, string>;
    body: string;
    /** The body's full length in bytes; `body` keeps at most `bodyLimit` of them. */
    bytes: number;
    truncated: boolean;
  };
  bodyLimit: number;
  curl: string;
}

const shellQuote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/** A curl command line that sends the same request (`-i`: the answer's status and headers too). */
export function curlLine(request: Exchange['request']): string {
  const parts = ['curl', '-sS', '-i'];
  if (request.method === 'HEAD') parts.push('--head');
  else if (request.method !== 'GET' || request.body !== undefined) parts.push('-X', request.method);
  parts.push(shellQuote(request.url));
  for (const [name, value] of Object.entries(request.headers))
    parts.push('-H', shellQuote(`${name}: ${value}`));
  if (request.body !== undefined) parts.push('--data-binary', shellQuote(request.body));
  return parts.join(' ');
}

function cut(body: Buffer, limit: number): { body: string; bytes: number; truncated: boolean } {
  const truncated = body.length > limit;
  return { body: body.subarray(0, limit).toString('utf8'), bytes: body.length, truncated };
}

/** The exchanges of one rule, in order (every Api of the rule records into the same one). */
export class ExchangeLog {
  readonly exchanges: Exchange[] = [];
  readonly bodyLimit = Number(setting('CONFORMANCE_EXCHANGE_BODY_BYTES'));

  record(request: Exchange['request'], reply: Reply): void {
    this.exchanges.push({
      request,
      response: { status: reply.status, headers: reply.headers, ...cut(reply.body, this.bodyLimit) },
      bodyLimit: this.bodyLimit,
      curl: curlLine(request),
    });
  }

  /**
   * The exchange that decided a failure: the last one whose `METHOD path → status` the message quotes
   * (how show() writes a reply), else the last one sent.
   */
  deciding(message: string): Exchange | undefined {
    const quoted = [...message.matchAll(/\b([A-Z]+) (\S+) → (\d{3})/g)].reverse();
    for (const [, method, path, status] of quoted) {
      const found = this.exchanges.findLast(
        (e) =>
          e.request.method === method &&
          e.request.url.endsWith(path as string) &&
          String(e.response.status) === status,
      );
      if (found) return found;
    }
    return this.exchanges.at(-1);
  }
}

export class Api {
  constructor(
    readonly request: APIRequestContext,
    readonly baseUrl: string,
    readonly log: ExchangeLog = new ExchangeLog(),
  ) {}

  async send(
    method: string,
    path: string,
    options: { data?: string | object; headers?: Record<string, string> } = {},
  ): Promise<Reply> {
    const response = await this.request.fetch(this.baseUrl + path, {
      method,
      headers: options.headers,
      data: options.data,
      maxRedirects: 0,
      failOnStatusCode: false,
      timeout: 15_000,
    });
    const body = method === 'HEAD' ? Buffer.alloc(0) : await response.body();
    const reply: Reply = {
      method,
      path,
      status: response.status(),
      headers: response.headers(),
      body,
      text: body.toString('utf8'),
    };
    await response.dispose();
    const data = options.data;
    this.log.record(
      {
        method,
        url: this.baseUrl + path,
        headers: { ...(options.headers ?? {}) },
        ...(data === undefined ? {} : { body: typeof data === 'string' ? data : JSON.stringify(data) }),
      },
      reply,
    );
    return reply;
  }

  get(path: string) {
    return this.send('GET', path);
  }

  /** PUT or POST a form (a raw string is sent as it is). */
  form(
    method: 'PUT' | 'POST',
    path: string,
    fields: Record<string, string | number> | string,
  ): Promise<Reply> {
    return this.send(method, path, {
      data: typeof fields === 'string' ? fields : formEncode(fields),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
  }

  json(method: string, path: string, value?: object): Promise<Reply> {
    return this.send(
      method,
      path,
      value === undefined
        ? {}
        : { data: JSON.stringify(value), headers: { 'Content-Type': 'application/json' } },
    );
  }

  // --- section A helpers
  put(user: { id: number | string; name: string; profession: string }) {
    return this.form('PUT', '/UserService/users', user);
  }

  post(user: { id: number | string; name: string; profession: string }) {
    return this.form('POST', '/UserService/users', user);
  }

  del(id: number | string) {
    return this.send('DELETE', `/UserService/users/${id}`);
  }

  /** The user with that id, or undefined when GET by id does not answer it. */
  async readUser(id: number | string): Promise<User | undefined> {
    const reply = await this.get(`/UserService/users/${id}`);
    if (reply.status < 200 || reply.status > 299) return undefined;
    let doc: XmlDocument;
    try {
      doc = xmlOf(reply);
    } catch {
      return undefined;
    }
    if (doc.root.name !== 'user') return undefined;
    const user = userOf(doc.root);
    return user && sameId(user.id, id) ? user : undefined;
  }

  /** Every user of the list answer (fails the rule when the list is not readable). */
  async listUsers(): Promise<{ reply: Reply; doc: XmlDocument; users: User[] }> {
    const reply = await this.get('/UserService/users');
    expect(reply.status, show(reply)).toBeGreaterThanOrEqual(200);
    expect(reply.status, show(reply)).toBeLessThan(300);
    const doc = xmlOf(reply);
    const found = doc.root.name === 'user' ? [doc.root] : elements(doc.root, 'user');
    const users = found.map((element) => {
      const user = userOf(element);
      if (!user)
        throw new Error(`a user element without exactly one id, name and profession: ${show(reply)}`);
      return user;
    });
    return { reply, doc, users };
  }

  async usersWithId(id: number | string): Promise<User[]> {
    return (await this.listUsers()).users.filter((u) => sameId(u.id, id));
  }
}

export interface RawReply {
  statusLine: string;
  headers: Record<string, string>;
  /** Bytes received after the end of the header block. */
  extra: Buffer;
}

/**
 * One request over a new connection with `Connection: close`, reading every byte until the server
 * closes (or a short quiet period passes): an HTTP client would not show a body sent after a HEAD.
 */
export function rawRequest(baseUrl: string, method: string, path: string, quietMs = 800): Promise<RawReply> {
  const url = new URL(baseUrl + path);
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  return new Promise((resolve, reject) => {
    const socket =
      url.protocol === 'https:'
        ? tls.connect({ host: url.hostname, port, servername: url.hostname, rejectUnauthorized: false })
        : net.connect({ host: url.hostname, port });
    const chunks: Buffer[] = [];
    let timer: NodeJS.Timeout | undefined;
    const finish = () => {
      clearTimeout(timer);
      socket.destroy();
      const all = Buffer.concat(chunks);
      const end = all.indexOf('\r\n\r\n');
      if (end < 0)
        return reject(
          new Error(`no complete header block: ${JSON.stringify(all.toString('latin1').slice(0, 200))}`),
        );
      const lines = all.subarray(0, end).toString('latin1').split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines.slice(1)) {
        const colon = line.indexOf(':');
        if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      resolve({ statusLine: lines[0] ?? '', headers, extra: all.subarray(end + 4) });
    };
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(finish, quietMs);
    };
    socket.on('connect', () => {
      socket.write(
        `${method} ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\nAccept: */*\r\nConnection: close\r\n\r\n`,
      );
      arm();
    });
    socket.on('secureConnect', arm);
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      arm();
    });
    socket.on('end', finish);
    socket.on('error', (err) => (chunks.length ? finish() : reject(err)));
  });
}
