import http from 'node:http';
import net from 'node:net';

/**
 * An HTTP client for the reliability tests built on node:http: no automatic retry of any kind
 * (a retried PUT would make the client-side log lie), keep-alive sockets, and a hard timeout.
 */
export interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
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
  body?: string | Buffer;
  agent?: http.Agent | false;
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
          body: Buffer.concat(chunks).toString('utf8'),
        }),
      );
      res.on('error', (err) => reject(classify(err)));
    });
    req.setTimeout(timeoutMs, () =>
      req.destroy(Object.assign(new Error('client timeout'), { code: 'CLIENT_TIMEOUT' })),
    );
    req.on('error', (err) => reject(classify(err)));
    if (body !== undefined) req.end(body);
    else req.end();
  });
}

function classify(err: Error & { code?: string }): RequestFailed {
  const code = err.code ?? err.message;
  if (code === 'ECONNREFUSED') return new RequestFailed('refused', code);
  if (code === 'CLIENT_TIMEOUT') return new RequestFailed('timeout', code);
  return new RequestFailed('reset', code);
}

/** Raw answer of a hand-written request: status line, headers (lower-cased names) and body. */
export interface RawReply {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Everything the server sent. */
  raw: string;
  /** True when the server closed the connection. */
  closed: boolean;
}

export interface RawOptions {
  /** Pieces written in turn, with `gapMs` between them. */
  pieces?: Array<string | Buffer>;
  gapMs?: number;
  /** Half-close after writing (the client sends nothing more). Default false. */
  end?: boolean;
  timeoutMs?: number;
}

/**
 * Sends bytes that fetch cannot (broken request lines, raw control characters, lying lengths) over a
 * plain socket and reads one answer: up to its Content-Length, or until the server closes.
 */
export function rawRequest(port: number, data: string | Buffer, options: RawOptions = {}): Promise<RawReply> {
  const { pieces = [data], gapMs = 0, end = false, timeoutMs = 5000 } = options;
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let buffer = Buffer.alloc(0);
    let settled = false;
    const finish = (closed: boolean) => {
      if (settled) return;
      const parsed = parseRaw(buffer);
      if (!parsed) {
        if (!closed) return;
        settled = true;
        socket.destroy();
        reject(
          new Error(`no complete answer (got ${JSON.stringify(buffer.toString('latin1').slice(0, 200))})`),
        );
        return;
      }
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ ...parsed, closed });
    };
    const timer = setTimeout(() => {
      if (settled) return;
      settled = true;
      socket.destroy();
      reject(
        new Error(
          `no answer within ${timeoutMs} ms (got ${JSON.stringify(buffer.toString('latin1').slice(0, 200))})`,
        ),
      );
    }, timeoutMs);
    socket.on('error', () => finish(true));
    socket.on('close', () => finish(true));
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      const parsed = parseRaw(buffer);
      if (parsed?.complete) finish(false);
    });
    socket.on('connect', async () => {
      for (const [i, piece] of pieces.entries()) {
        if (socket.destroyed) return;
        if (i > 0 && gapMs > 0) await new Promise((r) => setTimeout(r, gapMs));
        socket.write(piece);
      }
      if (end) socket.end();
    });
  });
}

function parseRaw(buffer: Buffer): (Omit<RawReply, 'closed'> & { complete: boolean }) | undefined {
  const text = buffer.toString('latin1');
  const headEnd = text.indexOf('\r\n\r\n');
  if (headEnd === -1) return undefined;
  const [statusLine = '', ...lines] = text.slice(0, headEnd).split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? 0);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const bodyBytes = buffer.subarray(Buffer.byteLength(text.slice(0, headEnd + 4), 'latin1'));
  const length = headers['content-length'] === undefined ? undefined : Number(headers['content-length']);
  const complete = length !== undefined && bodyBytes.length >= length;
  const body = (length === undefined ? bodyBytes : bodyBytes.subarray(0, length)).toString('utf8');
  return { status, headers, body, raw: text, complete };
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
