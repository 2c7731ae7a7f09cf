/**
 * A thin client over Playwright's APIRequestContext for one base URL, plus what the rules need to
 * read answers: media types, XML documents, result elements, users, form encoding, and a raw HTTP
 * request for checks the HTTP client hides (the bytes after a HEAD).
 */

import { type APIRequestContext, expect, request, test } from '@playwright/test';
import { childText, elements, parseXml, type XmlDocument, type XmlElement } from '../model/xml.ts';
import { curlLine, type Exchange, type ExchangeRequest, REQUEST_TIMEOUT_MS } from './exchange.ts';
import { CouldNotFinish, ExchangeFailure } from './failures.ts';
import { formEncode } from './form.ts';
import { exited, markUnresponsive, unresponsive } from './health.ts';
import { lying } from './liars.ts';
import { setting } from './options.mjs';
import { RawFailure, type RawReply, rawExchange } from './raw.ts';
import { SAFE_METHODS, transportFailure } from './transport.ts';

export interface Reply {
  method: string;
  path: string;
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  text: string;
  /** The exchange as the rule's log recorded it (Api.send): a failure on this answer carries it. */
  exchange?: Exchange;
}

export interface User {
  id: string;
  name: string;
  profession: string;
}

export { formEncode, type RawReply };

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

/** Fails the rule on this answer: the report shows this exchange. */
export function failOn(reply: Reply, message: string): never {
  throw new ExchangeFailure(`${message}\n${show(reply)}`, reply.exchange);
}

/**
 * `expect(value)` about one answer (`reply`, when there is one): a failed matcher's message ends with
 * the answer and the failure carries its exchange, so the report shows the exchange that disagreed.
 */
export function expectOn<T>(reply: Reply | undefined, value: T, what?: string): ReturnType<typeof expect<T>> {
  const message = reply ? (what ? `${what}: ${show(reply)}` : show(reply)) : what;
  return carrying(expect(value, message), reply?.exchange);
}

/** The matchers (and `.not`'s) with each failure rethrown as an ExchangeFailure carrying `exchange`. */
function carrying<M extends object>(matchers: M, exchange: Exchange | undefined): M {
  const rethrow = (err: unknown): never => {
    if (!(err instanceof Error)) throw err;
    const failure = new ExchangeFailure(err.message, exchange);
    failure.stack = err.stack;
    throw failure;
  };
  return new Proxy(matchers, {
    get(target, key) {
      const member = Reflect.get(target, key);
      if (typeof member === 'object' && member !== null) return carrying(member, exchange);
      if (typeof member !== 'function') return member;
      return (...args: unknown[]) => {
        try {
          const result = member.apply(target, args);
          return result instanceof Promise ? result.catch(rethrow) : result;
        } catch (err) {
          return rethrow(err);
        }
      };
    },
  });
}

const said = (reply: Reply) => `${reply.method} ${reply.path} answered`;
const typeOf = (reply: Reply) =>
  mediaType(reply)?.type ? `\`${mediaType(reply)?.type}\`` : 'no Content-Type';

export function expectXmlMediaType(reply: Reply): void {
  if (mediaType(reply)?.type !== 'application/xml')
    failOn(reply, `${said(reply)} ${typeOf(reply)}; the spec requires \`application/xml\``);
}

export function expectJsonUtf8(reply: Reply): void {
  const media = mediaType(reply);
  if (media?.type !== 'application/json')
    failOn(reply, `${said(reply)} ${typeOf(reply)}; the spec requires \`application/json\``);
  if (media.params.charset?.toLowerCase() !== 'utf-8')
    failOn(reply, `${said(reply)} \`${reply.headers['content-type']}\`; the spec requires charset=utf-8`);
}

/** A 2xx, or the rule fails on this answer (a 5xx is named as the server error it is). */
export function expectSuccess(reply: Reply, what: string): void {
  if (reply.status >= 200 && reply.status <= 299) return;
  failOn(
    reply,
    `${what}: ${said(reply)} ${reply.status}${reply.status >= 500 ? ' (a server error)' : ''}, not 2xx`,
  );
}

const isXmlType = (type: string) =>
  type === 'application/xml' || type === 'text/xml' || type.endsWith('+xml');

/**
 * Why an answer that should be XML is not, said as its cause: a 5xx (with an empty body or not), an
 * empty body, another representation. Undefined when it claims to be XML (then it is not well-formed).
 */
export function notXmlCause(reply: Reply): string | undefined {
  const type = mediaType(reply)?.type;
  if (reply.status >= 500)
    return `${said(reply)} ${reply.status} (a server error) with ${reply.body.length ? `a body that is not XML [${type ?? 'no Content-Type'}]` : 'an empty body'}`;
  if (!reply.body.length) return `${said(reply)} ${reply.status} with an empty body; the spec requires XML`;
  if (type && !isXmlType(type)) return `${said(reply)} ${typeOf(reply)}; the spec requires XML`;
  return undefined;
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
    return failOn(reply, notXmlCause(reply) ?? `not well-formed XML: ${(err as Error).message}`);
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
  if (doc.root.name !== 'result' || (text !== 'success' && text !== 'failure'))
    failOn(reply, `${said(reply)} neither <result>success</result> nor <result>failure</result>`);
  return text as Outcome;
}

/** The result element is `outcome`, or the rule fails on this answer. */
export function expectResult(reply: Reply, outcome: Outcome, what?: string): void {
  const found = resultOf(reply);
  if (found !== outcome)
    failOn(
      reply,
      `${what ? `${what}: ` : ''}${said(reply)} <result>${found}</result>; expected <result>${outcome}</result>`,
    );
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

function cut(body: Buffer, limit: number): { body: string; bytes: number; truncated: boolean } {
  const truncated = body.length > limit;
  return { body: body.subarray(0, limit).toString('utf8'), bytes: body.length, truncated };
}

/** The exchanges of one rule, in order (every Api of the rule records into the same one). */
export class ExchangeLog {
  readonly exchanges: Exchange[] = [];
  readonly bodyLimit = Number(setting('CONFORMANCE_EXCHANGE_BODY_BYTES'));

  record(request: ExchangeRequest, reply: Reply): Exchange {
    const exchange = {
      request,
      response: { status: reply.status, headers: reply.headers, ...cut(reply.body, this.bodyLimit) },
      bodyLimit: this.bodyLimit,
      curl: curlLine(request),
    };
    this.exchanges.push(exchange);
    this.progress?.(
      `${this.exchanges.length} requests answered, the last: ${reply.method} ${reply.path} → ${reply.status}`,
    );
    return exchange;
  }

  /** Told what the rule is waiting for and how far it got (the rule keeps it, for a rule that times out). */
  progress?: (text: string) => void;

  sending(method: string, path: string): void {
    this.progress?.(
      `${this.exchanges.length} requests answered; waiting for the answer to ${method} ${path} since ${new Date().toISOString()}`,
    );
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const ruleTitle = () => {
  try {
    return test.info().title.split(' ')[0];
  } catch {
    return undefined;
  }
};

export class Api {
  // Fields written out, not parameter properties: Node's type stripping (the explore command) reads this file too.
  readonly request: APIRequestContext;
  readonly baseUrl: string;
  readonly log: ExchangeLog;
  /** Why the implementation behind baseUrl is gone, once it is (it exited): said instead of "refused". */
  readonly gone: () => string | undefined;

  constructor(
    request: APIRequestContext,
    baseUrl: string,
    log: ExchangeLog = new ExchangeLog(),
    gone: () => string | undefined = () => undefined,
  ) {
    this.request = request;
    this.baseUrl = baseUrl;
    this.log = log;
    this.gone = gone;
  }

  async send(
    method: string,
    path: string,
    options: { data?: string | object; headers?: Record<string, string> } = {},
  ): Promise<Reply> {
    const stalled = unresponsive();
    if (stalled) throw new CouldNotFinish(`${method} ${path} not sent: earlier in the run, ${stalled}`);
    this.log.sending(method, path);
    const fetchOnce = async () => {
      const response = await this.request.fetch(this.baseUrl + path, {
        method,
        headers: options.headers,
        data: options.data,
        maxRedirects: 0,
        failOnStatusCode: false,
        timeout: REQUEST_TIMEOUT_MS,
      });
      return { response, body: method === 'HEAD' ? Buffer.alloc(0) : await response.body() };
    };
    let fetched: Awaited<ReturnType<typeof fetchOnce>>;
    try {
      fetched = await fetchOnce();
    } catch (err) {
      // A keep-alive connection the implementation closed, idle, just as this request went out on it (the
      // reference server's keep-alive timeout is 5 s; USR-SIZE-01 met it once in about 150 runs): a safe
      // request is sent again, once, on a new connection, as RFC 9112 section 9.3.1 lets a client do.
      const closed =
        transportFailure(err, `${method} ${path}`, REQUEST_TIMEOUT_MS)?.kind === 'closed before answering';
      if (!closed || !SAFE_METHODS.has(method)) throw await this.named(err, `${method} ${path}`);
      try {
        fetched = await fetchOnce();
      } catch (again) {
        throw await this.named(again, `${method} ${path}`);
      }
    }
    const { response, body } = fetched;
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
    reply.exchange = this.log.record(
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

  /**
   * The error a request without a usable answer ends the rule with: "could not finish" when time or the
   * implementation's exit decided it (and a stall stops the rest of the run from waiting as long), a
   * failure naming what came back otherwise ("not HTTP", "connection closed mid-answer").
   */
  private async named(err: unknown, request: string): Promise<unknown> {
    const found = transportFailure(err, request, REQUEST_TIMEOUT_MS);
    if (!found) return err;
    if (found.kind === 'no answer' || found.kind === 'body did not end') {
      const rule = ruleTitle();
      markUnresponsive(`${found.text}${rule ? ` (in ${rule})` : ''}`);
      return new CouldNotFinish(found.text);
    }
    if (found.kind === 'refused' || found.kind === 'closed before answering') {
      // The exit may be recorded a moment after the connection broke.
      for (let waited = 0; waited <= 1000; waited += 100) {
        const why = this.gone();
        if (why) return new CouldNotFinish(`${why}: ${request} got no answer`);
        await sleep(100);
      }
    }
    if (found.kind === 'refused') return new CouldNotFinish(found.text);
    return new Error(found.text);
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

  /**
   * The user with that id, or undefined when GET by id does not answer it. When GET by id is known to
   * lie (support/readers.ts), the user as the list shows it.
   */
  async readUser(id: number | string): Promise<User | undefined> {
    if (lying('GET by id')) {
      // The list lies too (model throughBothLiars): a user only where GET by id serves one.
      if (lying('GET list')) {
        const byId = await this.get(`/UserService/users/${id}`);
        if (byId.status < 200 || byId.status > 299 || !byId.body.length) return undefined;
      }
      const listed = await this.usersWithId(id);
      return listed.length === 1 ? listed[0] : undefined;
    }
    const reply = await this.get(`/UserService/users/${id}`);
    if (reply.status < 200 || reply.status > 299) return undefined;
    // Served, in another representation: said as that, not as "not served".
    if (/json/.test(mediaType(reply)?.type ?? '') && reply.body.length)
      failOn(reply, `${said(reply)} ${typeOf(reply)}; the spec requires XML`);
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
    expectSuccess(reply, 'the list');
    const doc = xmlOf(reply);
    const found = doc.root.name === 'user' ? [doc.root] : elements(doc.root, 'user');
    const users = found.map((element) => {
      const user = userOf(element);
      if (!user) failOn(reply, 'a user element without exactly one id, name and profession');
      return user;
    });
    return { reply, doc, users };
  }

  async usersWithId(id: number | string): Promise<User[]> {
    return (await this.listUsers()).users.filter((u) => sameId(u.id, id));
  }
}

/**
 * One request over a new connection with `Connection: close`, reading every byte until the server
 * closes (or a short quiet period passes once bytes came): an HTTP client would not show a body sent
 * after a HEAD (support/raw.ts). Bounded like Api.send: nothing within REQUEST_TIMEOUT_MS is "no
 * answer" (could not finish); bytes still coming then are what came.
 */
export async function rawRequest(
  baseUrl: string,
  method: string,
  path: string,
  quietMs = 800,
): Promise<RawReply> {
  const stalled = unresponsive();
  if (stalled) throw new CouldNotFinish(`${method} ${path} not sent: earlier in the run, ${stalled}`);
  try {
    return await rawExchange(baseUrl, method, path, { quietMs, timeoutMs: REQUEST_TIMEOUT_MS });
  } catch (err) {
    if (!(err instanceof RawFailure)) throw err;
    if (err.kind === 'no answer') {
      markUnresponsive(`${err.message}${ruleTitle() ? ` (in ${ruleTitle()})` : ''}`);
      throw new CouldNotFinish(err.message);
    }
    if (err.kind === 'socket') {
      // The shared instance exited: said as that (rules on an instance of their own use Api.send).
      await sleep(500);
      const why = exited();
      if (why) throw new CouldNotFinish(`${why}: ${method} ${path} got no answer`);
    }
    throw new Error(err.message);
  }
}

/**
 * `fn` with a client of `api`'s target on new connections (a request context of its own, disposed after):
 * its requests share no keep-alive socket with earlier ones, so they reach the target at once, not spread
 * over the sockets of a pool. Its exchanges go to `api`'s log.
 */
export async function onNewConnections<T>(api: Api, fn: (fresh: Api) => Promise<T>): Promise<T> {
  const context = await request.newContext();
  try {
    return await fn(new Api(context, api.baseUrl, api.log, api.gone));
  } finally {
    await context.dispose();
  }
}
