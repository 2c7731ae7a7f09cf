/**
 * The one HTTP test client. `request`: an ordinary request through node:http, sent once (no retry of
 * any kind: a retried PUT would make a client-side log lie), on a new connection unless given a
 * keep-alive agent, with only the headers given; a request that got no answer fails as `RequestFailed`.
 * Beside it, the raw mode (`openRaw`, `sendRaw`, `rawRequest`): bytes that node:http cannot send (broken
 * request lines, raw control characters, lying lengths, pipelines, trickles) written on a new socket,
 * and what came back.
 */
import http from 'node:http';
import net from 'node:net';

export interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The header lines as they came, name and value in turn (a repeated header stays repeated). */
  rawHeaders: string[];
  body: string;
}

/** How a request ended when no answer came back. */
export type NetFailure = 'refused' | 'reset' | 'timeout';

export class RequestFailed extends Error {
  constructor(
    readonly kind: NetFailure,
    readonly code: string,
  ) {
    super(`${kind} (${code})`);
  }
}

export function createAgent(maxSockets = 64): http.Agent {
  return new http.Agent({ keepAlive: true, maxSockets, keepAliveMsecs: 1000 });
}

export interface RequestOptions {
  method?: string;
  headers?: Record<string, string>;
  /** Sent with its Content-Length (unless `headers` gives one), whatever the method. */
  body?: string | Uint8Array;
  /** Default false: a new connection, closed after the answer. */
  agent?: http.Agent | false;
  /** Fails as 'timeout' once the socket has been idle this long. Default 10000. */
  timeoutMs?: number;
}

export function request(url: string, options: RequestOptions = {}): Promise<Reply> {
  const { method = 'GET', headers = {}, body, agent = false, timeoutMs = 10_000 } = options;
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          rawHeaders: res.rawHeaders,
          body: Buffer.concat(chunks).toString('utf8'),
        }),
      );
      res.on('error', (err) => reject(classify(err)));
    });
    req.setTimeout(timeoutMs, () =>
      req.destroy(Object.assign(new Error('client timeout'), { code: 'CLIENT_TIMEOUT' })),
    );
    req.on('error', (err) => reject(classify(err)));
    // node frames the body of a GET, HEAD, DELETE or OPTIONS by nothing unless told its length.
    if (body !== undefined && !req.hasHeader('content-length'))
      req.setHeader('Content-Length', Buffer.byteLength(body));
    req.end(body);
  });
}

function classify(err: Error & { code?: string }): RequestFailed {
  const code = err.code ?? err.message;
  if (code === 'ECONNREFUSED') return new RequestFailed('refused', code);
  if (code === 'CLIENT_TIMEOUT') return new RequestFailed('timeout', code);
  return new RequestFailed('reset', code);
}

/** Resolves once `url` answers with `status` (polling), or rejects after `timeoutMs`. */
export async function waitForStatus(url: string, status: number, timeoutMs: number): Promise<number> {
  const started = performance.now();
  while (performance.now() - started < timeoutMs) {
    try {
      const reply = await request(url, { timeoutMs: 1000 });
      if (reply.status === status) return performance.now() - started;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${url} did not answer ${status} within ${timeoutMs} ms`);
}

/** True when nothing listens on the loopback port any more (the connection is refused). */
export function connectRefused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'ECONNREFUSED'));
  });
}

export interface RawSendOptions {
  /** Default 127.0.0.1. */
  host?: string;
  /** Pieces written in turn, with `gapMs` between them (default: the bytes at once). */
  pieces?: Array<string | Buffer>;
  gapMs?: number;
  /** Half-close after the last piece (the client sends nothing more). Default false. */
  end?: boolean;
  /** Half-close once the server has sent nothing for this long after the last piece (and after each byte). */
  endWhenIdleMs?: number;
  /**
   * When enough came: 'close' (default), when the server closes the connection; 'answer', once one
   * complete answer (up to its Content-Length) came; or a test of the bytes received so far.
   */
  until?: 'close' | 'answer' | ((received: Buffer) => boolean);
  /** Gives up after this long (`timedOut`); default: no limit. */
  timeoutMs?: number;
}

export interface RawResult {
  /** Every byte the server sent. */
  data: Buffer;
  /** The server closed (or reset) the connection. */
  closed: boolean;
  /** `until` was met (before a close). */
  satisfied: boolean;
  timedOut: boolean;
  /** The socket's error when it failed before the server ended the connection (a reset, a refusal). */
  error?: NodeJS.ErrnoException;
  /** From the call to the end. */
  ms: number;
}

export interface RawConnection {
  /** The socket, for a test that pauses reading, or destroys it itself. */
  readonly socket: net.Socket;
  received(): Buffer;
  /** Resolves when the server closes, `until` is met (the socket is then destroyed) or time runs out. */
  readonly done: Promise<RawResult>;
}

/** Opens a socket to `port`, writes `bytes` (or `pieces`) and collects what comes back. */
export function openRaw(port: number, bytes: string | Buffer, options: RawSendOptions = {}): RawConnection {
  const started = performance.now();
  const { host = '127.0.0.1', pieces = [bytes], gapMs = 0, end = false, until = 'close' } = options;
  const enough =
    until === 'answer'
      ? (data: Buffer) => parseAnswer(data)?.complete === true
      : until === 'close'
        ? undefined
        : until;
  const socket = net.connect(port, host);
  const chunks: Buffer[] = [];
  const received = () => Buffer.concat(chunks);
  let settled = false;
  let peerEnded = false;
  let error: NodeJS.ErrnoException | undefined;
  let idle: NodeJS.Timeout | undefined;
  let timer: NodeJS.Timeout | undefined;
  let resolve!: (result: RawResult) => void;
  const done = new Promise<RawResult>((r) => {
    resolve = r;
  });
  const finish = (how: 'closed' | 'satisfied' | 'timedOut') => {
    if (settled) return;
    settled = true;
    clearTimeout(timer);
    clearTimeout(idle);
    if (how !== 'closed') socket.destroy();
    resolve({
      data: received(),
      closed: how === 'closed',
      satisfied: how === 'satisfied',
      timedOut: how === 'timedOut',
      ...(error ? { error } : {}),
      ms: performance.now() - started,
    });
  };
  const endWhenIdle = () => {
    if (options.endWhenIdleMs === undefined || settled) return;
    clearTimeout(idle);
    idle = setTimeout(() => socket.end(), options.endWhenIdleMs);
  };
  if (options.timeoutMs !== undefined) timer = setTimeout(() => finish('timedOut'), options.timeoutMs);
  socket.on('data', (chunk: Buffer) => {
    chunks.push(chunk);
    if (enough?.(received())) finish('satisfied');
    else endWhenIdle();
  });
  socket.on('end', () => {
    peerEnded = true;
  });
  socket.on('error', (err: NodeJS.ErrnoException) => {
    if (!peerEnded) error = err;
  });
  socket.on('close', () => finish('closed'));
  socket.on('connect', async () => {
    for (const [i, piece] of pieces.entries()) {
      if (socket.destroyed) return;
      if (i > 0 && gapMs > 0) await new Promise((r) => setTimeout(r, gapMs));
      if (socket.destroyed) return;
      socket.write(piece);
    }
    if (end) socket.end();
    else endWhenIdle();
  });
  return { socket, received, done };
}

/** openRaw, awaited. */
export function sendRaw(
  port: number,
  bytes: string | Buffer,
  options: RawSendOptions = {},
): Promise<RawResult> {
  return openRaw(port, bytes, options).done;
}

/** One answer of a raw exchange: status line, headers (lower-cased names) and body. */
export interface RawReply {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Everything the server sent. */
  raw: string;
  /** True when the server closed the connection. */
  closed: boolean;
}

/** The first answer in `data`, once its head came; `complete` once its body came up to its Content-Length. */
export function parseAnswer(data: Buffer): (Omit<RawReply, 'closed'> & { complete: boolean }) | undefined {
  const text = data.toString('latin1');
  const headEnd = text.indexOf('\r\n\r\n');
  if (headEnd === -1) return undefined;
  const [statusLine = '', ...lines] = text.slice(0, headEnd).split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? 0);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const bodyBytes = data.subarray(Buffer.byteLength(text.slice(0, headEnd + 4), 'latin1'));
  const length = headers['content-length'] === undefined ? undefined : Number(headers['content-length']);
  const complete = length !== undefined && bodyBytes.length >= length;
  const body = (length === undefined ? bodyBytes : bodyBytes.subarray(0, length)).toString('utf8');
  return { status, headers, body, raw: text, complete };
}

export interface RawRequestOptions {
  /** Pieces written in turn, with `gapMs` between them. */
  pieces?: Array<string | Buffer>;
  gapMs?: number;
  /** Half-close after writing (the client sends nothing more). Default false. */
  end?: boolean;
  /** Default 5000. */
  timeoutMs?: number;
}

/**
 * Sends bytes on a new socket and reads one answer: up to its Content-Length, or until the server
 * closes. Rejects when no answer came within `timeoutMs`, or the server closed before an answer's head.
 */
export async function rawRequest(
  port: number,
  data: string | Buffer,
  options: RawRequestOptions = {},
): Promise<RawReply> {
  const { pieces = [data], gapMs = 0, end = false, timeoutMs = 5000 } = options;
  const result = await sendRaw(port, data, { pieces, gapMs, end, timeoutMs, until: 'answer' });
  const got = () => JSON.stringify(result.data.toString('latin1').slice(0, 200));
  if (result.timedOut) throw new Error(`no answer within ${timeoutMs} ms (got ${got()})`);
  const parsed = parseAnswer(result.data);
  if (!parsed) throw new Error(`no complete answer (got ${got()})`);
  return { ...parsed, closed: result.closed };
}
