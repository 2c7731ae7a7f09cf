/**
 * One HTTP/1.1 request over a raw socket on a connection of its own, for what an HTTP client hides or
 * cannot promise: the bytes a server sends after the headers of a HEAD answer (an HTTP client reads no
 * body there), and a request on a new connection that no pool reuses (USR-SIZE-01's PUT sent again).
 * The rules reach it through `rawRequest` (support/http.ts, which adds the run's health) and
 * tests/size.spec.ts, the explorer through its client. No Playwright here: the explorer also runs on its own.
 */
import net from 'node:net';
import tls from 'node:tls';
import { type TransportFailure, transportFailure } from './transport.ts';

export interface RawReply {
  statusLine: string;
  headers: Record<string, string>;
  /** Bytes received after the end of the header block. */
  extra: Buffer;
}

/** Why no answer could be read: nothing within the bound, the socket's error, or bytes that are not an answer. */
export class RawFailure extends Error {
  readonly kind: 'no answer' | 'socket' | 'not an answer';
  constructor(message: string, kind: RawFailure['kind']) {
    super(message);
    this.kind = kind;
  }
}

const CLOSED = 'connection closed before any answer';

/**
 * Sends the request with `Connection: close` on a new connection and reads every byte until the server
 * closes, or `quietMs` pass without a byte once bytes came. Nothing within `timeoutMs` rejects with a
 * RawFailure `no answer`; bytes still coming then are what came. A `body` is sent with its Content-Length.
 */
export function rawExchange(
  baseUrl: string,
  method: string,
  path: string,
  options: { quietMs: number; timeoutMs: number; headers?: Record<string, string>; body?: string },
): Promise<RawReply> {
  const url = new URL(baseUrl + path);
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  const { body } = options;
  const headers = {
    ...options.headers,
    ...(body === undefined ? {} : { 'Content-Length': String(Buffer.byteLength(body)) }),
  };
  const extraHeaders = Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  return new Promise((resolve, reject) => {
    const socket =
      url.protocol === 'https:'
        ? tls.connect({ host: url.hostname, port, servername: url.hostname, rejectUnauthorized: false })
        : net.connect({ host: url.hostname, port });
    const chunks: Buffer[] = [];
    let timer: NodeJS.Timeout | undefined;
    let done = false;
    const settle = () => {
      done = true;
      clearTimeout(timer);
      clearTimeout(deadline);
      socket.destroy();
    };
    const finish = () => {
      if (done) return;
      settle();
      const all = Buffer.concat(chunks);
      const end = all.indexOf('\r\n\r\n');
      if (!all.length) return reject(new RawFailure(`${CLOSED} to ${method} ${path}`, 'socket'));
      if (end < 0)
        return reject(
          new RawFailure(
            `no complete header block: ${JSON.stringify(all.toString('latin1').slice(0, 200))}`,
            'not an answer',
          ),
        );
      const lines = all.subarray(0, end).toString('latin1').split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines.slice(1)) {
        const colon = line.indexOf(':');
        if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      resolve({ statusLine: lines[0] ?? '', headers, extra: all.subarray(end + 4) });
    };
    const deadline = setTimeout(() => {
      if (chunks.length) return finish();
      settle();
      reject(
        new RawFailure(`no answer within ${options.timeoutMs / 1000} s to ${method} ${path}`, 'no answer'),
      );
    }, options.timeoutMs);
    socket.on('connect', () => {
      socket.write(
        `${method} ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\nAccept: */*\r\n${extraHeaders}Connection: close\r\n\r\n${body ?? ''}`,
      );
    });
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      clearTimeout(timer);
      timer = setTimeout(finish, options.quietMs);
    });
    socket.on('end', finish);
    socket.on('error', (err) => {
      if (chunks.length) return finish();
      if (done) return;
      settle();
      reject(new RawFailure(err.message, 'socket'));
    });
  });
}

/** The status of a raw answer, from its status line; a RawFailure `not an answer` when that is not one. */
export function rawStatus(reply: RawReply): number {
  const status = /^HTTP\/\d(?:\.\d)? (\d{3})/.exec(reply.statusLine)?.[1];
  if (status === undefined)
    throw new RawFailure(`not an HTTP status line: ${JSON.stringify(reply.statusLine)}`, 'not an answer');
  return Number(status);
}

/**
 * The body of a raw answer that has one (not HEAD's): its chunks joined when it came chunked, else the
 * bytes its Content-Length announces, else every byte until the server closed.
 */
export function rawBody(reply: RawReply): Buffer {
  const { extra } = reply;
  if (/\bchunked\b/i.test(reply.headers['transfer-encoding'] ?? '')) {
    const parts: Buffer[] = [];
    let at = 0;
    for (;;) {
      const eol = extra.indexOf('\r\n', at);
      const size = eol < 0 ? 0 : Number.parseInt(extra.subarray(at, eol).toString('latin1'), 16);
      if (!(size > 0)) break;
      parts.push(extra.subarray(eol + 2, eol + 2 + size));
      at = eol + 2 + size + 2;
    }
    return Buffer.concat(parts);
  }
  const length = Number(reply.headers['content-length'] ?? Number.NaN);
  return Number.isInteger(length) && length >= 0 ? extra.subarray(0, length) : extra;
}

/**
 * A failure of rawExchange named as support/transport.ts names an HTTP client's (`request`: the request
 * as the message says it); undefined for an error that is not about the exchange.
 */
export function rawTransportFailure(
  err: unknown,
  request: string,
  timeoutMs: number,
): TransportFailure | undefined {
  if (!(err instanceof RawFailure)) return transportFailure(err, request, timeoutMs);
  switch (err.kind) {
    case 'no answer':
      return transportFailure('timed out', request, timeoutMs);
    case 'not an answer':
      return transportFailure(`Parse Error: ${err.message}`, request, timeoutMs);
    case 'socket':
      return transportFailure(
        err.message.startsWith(CLOSED) ? 'socket hang up' : err.message,
        request,
        timeoutMs,
      );
  }
}
