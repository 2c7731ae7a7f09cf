import fs from 'node:fs';
import { sendRaw } from '../../../../testing/http.ts';

/** What came back for one connection of the fuzzer: the answers, and how the connection ended. */
export interface Exchange {
  /** The answers, in order (interim 1xx answers included). */
  answers: Array<{ status: number; headers: Record<string, string> }>;
  /** Set when the bytes received are not a sequence of well-formed HTTP/1.1 answers. */
  malformed?: string;
  /** Every request got its final answer, or the server closed the connection, within the time limit. */
  closed: boolean;
  /** Bytes received, and the first of them (latin1) for a report. */
  received: number;
  head: string;
  ms: number;
}

/**
 * Writes `bytes` and collects the answers: done once every request has its final answer, or the server
 * closed the connection. A request that is still incomplete (its body shorter than declared) gets no
 * answer: after `idleMs` without a byte, the client half-closes (sends nothing more), and the server
 * must then answer or close within `timeoutMs`. (Node ends a connection whose client half-closed
 * before the answer was written, so half-closing at once would leave the slower answers unchecked.)
 * What came is parsed as HTTP/1.1 answers to `methods` (a HEAD answer has no body).
 */
export async function exchange(
  port: number,
  bytes: Buffer,
  methods: string[],
  timeoutMs: number,
  idleMs = 150,
): Promise<Exchange> {
  const answered = (data: Buffer) => {
    const { answers, malformed } = parseAnswers(data, methods);
    return !malformed && answers.filter((a) => a.status >= 200).length >= methods.length;
  };
  const result = await sendRaw(port, bytes, { timeoutMs, endWhenIdleMs: idleMs, until: answered });
  return {
    ...parseAnswers(result.data, methods),
    closed: result.closed || result.satisfied,
    received: result.data.length,
    head: result.data.toString('latin1', 0, 900),
    ms: result.ms,
  };
}

const STATUS_LINE = /^HTTP\/1\.[01] (\d{3}) [^\r\n]*$/;
const HEADER_LINE = /^([!#$%&'*+\-.^_`|~0-9A-Za-z]+):[ \t]*([^\r\n]*)$/;

/** Splits `data` into answers; the last one may run to the end of the data when it has no length. */
export function parseAnswers(data: Buffer, methods: string[]): Pick<Exchange, 'answers' | 'malformed'> {
  const answers: Exchange['answers'] = [];
  let at = 0;
  let request = 0;
  while (at < data.length) {
    const headEnd = data.indexOf('\r\n\r\n', at, 'latin1');
    if (headEnd === -1) return { answers, malformed: `an answer with no end of head at byte ${at}` };
    const [statusLine = '', ...lines] = data.toString('latin1', at, headEnd).split('\r\n');
    const status = STATUS_LINE.exec(statusLine);
    if (!status) return { answers, malformed: `bad status line ${JSON.stringify(statusLine.slice(0, 80))}` };
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const header = HEADER_LINE.exec(line);
      if (!header) return { answers, malformed: `bad header line ${JSON.stringify(line.slice(0, 80))}` };
      headers[(header[1] as string).toLowerCase()] = header[2] as string;
    }
    const code = Number(status[1]);
    answers.push({ status: code, headers });
    at = headEnd + 4;
    if (code >= 100 && code < 200) continue; // interim: the final answer follows
    const method = methods[request++] ?? 'GET';
    const length = headers['content-length'];
    // The answer to a request the parser could not read ends the connection; the server cannot always
    // tell which method that request had, so a body of exactly Content-Length bytes, or none, is fine.
    if (/close/i.test(headers.connection ?? '') && length !== undefined && /^\d+$/.test(length)) {
      const rest = data.length - at;
      if (rest === 0 || rest === Number(length)) break;
    }
    if (method === 'HEAD' || code === 204 || code === 304) continue;
    if (/chunked/i.test(headers['transfer-encoding'] ?? '')) {
      const end = skipChunks(data, at);
      if (end === undefined) return { answers, malformed: 'a malformed chunked body' };
      at = end;
      continue;
    }
    if (length === undefined) {
      at = data.length; // delimited by the close
      continue;
    }
    if (!/^\d+$/.test(length)) return { answers, malformed: `bad Content-Length ${JSON.stringify(length)}` };
    if (at + Number(length) > data.length)
      return { answers, malformed: 'a body shorter than its Content-Length' };
    at += Number(length);
  }
  return { answers };
}

/** The offset after a chunked body starting at `at` (chunks, last chunk, trailers); undefined if malformed. */
function skipChunks(data: Buffer, at: number): number | undefined {
  for (;;) {
    const lineEnd = data.indexOf('\r\n', at, 'latin1');
    if (lineEnd === -1) return undefined;
    const size = Number.parseInt(data.toString('latin1', at, lineEnd).split(';')[0] ?? '', 16);
    if (!Number.isFinite(size) || size < 0) return undefined;
    at = lineEnd + 2;
    if (size === 0) {
      const trailersEnd =
        data.indexOf('\r\n', at, 'latin1') === at ? at : data.indexOf('\r\n\r\n', at, 'latin1') + 2;
      return trailersEnd < at ? undefined : trailersEnd + 2;
    }
    if (data.toString('latin1', at + size, at + size + 2) !== '\r\n') return undefined;
    at += size + 2;
  }
}

/** Open descriptors of a process (Linux). */
export function descriptorCount(pid: number): number {
  return fs.readdirSync(`/proc/${pid}/fd`).length;
}

/**
 * Open descriptors of a process other than unix sockets: the embedded Redis is reached over a unix
 * socket, and its connection pool may open one more under a burst, which is not a leak of the HTTP layer.
 */
export function descriptorCountBesidesUnixSockets(pid: number): number {
  const unix = new Set(
    fs
      .readFileSync('/proc/net/unix', 'utf8')
      .split('\n')
      .slice(1)
      .map((line) => line.trim().split(/\s+/)[6]),
  );
  let count = 0;
  for (const fd of fs.readdirSync(`/proc/${pid}/fd`)) {
    try {
      const inode = /^socket:\[(\d+)\]$/.exec(fs.readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1];
      if (inode === undefined || !unix.has(inode)) count++;
    } catch {
      // closed meanwhile
    }
  }
  return count;
}
