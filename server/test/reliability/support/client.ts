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
