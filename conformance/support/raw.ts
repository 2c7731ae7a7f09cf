/**
 * One HTTP/1.1 request over a raw socket, for what an HTTP client hides: the bytes a server sends after
 * the headers of a HEAD answer (an HTTP client reads no body there). The rules reach it through
 * `rawRequest` (support/http.ts, which adds the run's health), the explorer through its client.
 * No Playwright here: the explorer also runs on its own.
 */
import net from 'node:net';
import tls from 'node:tls';

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

/**
 * Sends the request with `Connection: close` on a new connection and reads every byte until the server
 * closes, or `quietMs` pass without a byte once bytes came. Nothing within `timeoutMs` rejects with a
 * RawFailure `no answer`; bytes still coming then are what came.
 */
export function rawExchange(
  baseUrl: string,
  method: string,
  path: string,
  options: { quietMs: number; timeoutMs: number; headers?: Record<string, string> },
): Promise<RawReply> {
  const url = new URL(baseUrl + path);
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  const extraHeaders = Object.entries(options.headers ?? {})
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
      if (!all.length)
        return reject(new RawFailure(`connection closed before any answer to ${method} ${path}`, 'socket'));
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
        `${method} ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\nAccept: */*\r\n${extraHeaders}Connection: close\r\n\r\n`,
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
