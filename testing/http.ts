/**
 * The one raw-socket HTTP client of the tests: bytes that fetch and node:http cannot send (broken
 * request lines, raw control characters, lying lengths, pipelines, trickles) written on a new socket,
 * and what came back.
 */
import net from 'node:net';

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
