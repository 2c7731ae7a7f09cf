import os from 'node:os';
import { type DestinationStream, type Logger, pino } from 'pino';
import { DEFAULTS } from './defaults.ts';

/** Lines held at most before they are written, whatever the interval (a burst of logging stays bounded). */
const MAX_BATCH_LINES = 1024;
/** The largest write POSIX guarantees to reach a pipe in one piece (Linux: 4096). */
const PIPE_BUF = 4096;

interface SyncTarget {
  write(text: string): unknown;
  flushSync(): void;
}

/**
 * A pino destination that writes the lines of an interval (logFlushIntervalMs) together. pino's default
 * writes each line with its own system call: one per request for the access log, about a tenth of a
 * GET's CPU time. pino's own buffering (`minLength`) measures its whole buffer again at every line, so it
 * saves little; one write per event-loop turn still made nearly one per request for updates, whose
 * requests span several turns (docs/benchmarks.md). Here a line reaches the file descriptor at most
 * `intervalMs` after the first line held (and at exit, see `flushSync`), so `tail -f` stays live and a
 * killed process loses that much at most.
 */
export class BatchedDestination implements DestinationStream {
  private lines: string[] = [];
  private timer: NodeJS.Timeout | undefined;

  /**
   * `maxWriteBytes`: when several processes write to one pipe (cluster workers), a write of at most
   * PIPE_BUF (4096) bytes reaches it whole, so the batch is cut into such writes at line ends and no
   * line of one process is split by another's.
   */
  constructor(
    private readonly target: SyncTarget,
    private readonly maxWriteBytes = Number.POSITIVE_INFINITY,
    private readonly intervalMs: number = DEFAULTS.logFlushIntervalMs,
  ) {}

  write(line: string): void {
    this.lines.push(line);
    if (this.lines.length >= MAX_BATCH_LINES) this.flush();
    else if (this.timer === undefined) {
      // Unref'd: held lines never keep the process alive (they are written at exit).
      this.timer = setTimeout(this.flush, this.intervalMs).unref();
    }
  }

  /** Hands the held lines to the target in one write. */
  readonly flush = (): void => {
    if (this.timer !== undefined) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (this.lines.length === 0) return;
    const lines = this.lines;
    const text = lines.length === 1 ? (lines[0] as string) : lines.join('');
    this.lines = [];
    // A UTF-8 character is at most 3 bytes per UTF-16 unit: most batches need no byte count.
    if (text.length * 3 <= this.maxWriteBytes || Buffer.byteLength(text) <= this.maxWriteBytes) {
      this.target.write(text);
      return;
    }
    let chunk = '';
    let bytes = 0;
    for (const line of lines) {
      const size = Buffer.byteLength(line);
      if (bytes + size > this.maxWriteBytes && bytes > 0) {
        this.target.write(chunk);
        chunk = '';
        bytes = 0;
      }
      chunk += line;
      bytes += size;
    }
    this.target.write(chunk);
  };

  /** Writes everything now, synchronously: for process exit. */
  flushSync(): void {
    this.flush();
    this.target.flushSync();
  }
}

/** What the access log records of one answered request. */
export interface AccessEntry {
  reqId: string;
  method: string;
  url: string;
  status: number;
  ms: number;
}

/** Records one answered request (its fields as arguments: no entry object per request). */
export type AccessLog = (reqId: string, method: string, url: string, status: number, ms: number) => void;

const LOGGER_NAME = 'user-service';

/** The fields pino puts after `time` on every line of a logger named `name` (its default base). */
export function accessLineBase(name: string): string {
  return `,"pid":${process.pid},"hostname":${JSON.stringify(os.hostname())},"name":${JSON.stringify(name)}`;
}

/** Printable ASCII other than `"` and `\\`: a JSON string of these is the text in quotes. */
const JSON_PLAIN = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/** `JSON.stringify(text)`, without running the serialiser for the usual plain text. */
function jsonString(text: string): string {
  return JSON_PLAIN.test(text) ? `"${text}"` : JSON.stringify(text);
}

/**
 * The access line of one request, as pino writes `logger.info({ reqId, method, url, status, ms },
 * 'request')` (a test compares the two). One template: pino's general serialiser costs about three
 * times as much per line, and the access log writes a line for every request.
 */
export function formatAccessLine(
  base: string,
  time: number,
  reqId: string,
  method: string,
  url: string,
  status: number,
  ms: number,
): string {
  return `{"level":30,"time":${time}${base},"reqId":${jsonString(reqId)},"method":${jsonString(method)},"url":${jsonString(url)},"status":${status},"ms":${ms},"msg":"request"}\n`;
}

/**
 * The service's logger (JSON lines on standard output, written in batches, see BatchedDestination), its access
 * log (same lines, same destination, at level info) and the flush for process exit. `sharedOutput`:
 * other processes write to the same standard output (the cluster's primary and workers).
 */
export function createLogger(
  level: string,
  options: { sharedOutput?: boolean } = {},
): { logger: Logger; accessLog: AccessLog; flushSync: () => void } {
  // sonic-boom (pino's writer) in sync mode: handles partial writes, EAGAIN and a closed pipe.
  const destination = new BatchedDestination(
    pino.destination({ dest: 1, sync: true }),
    options.sharedOutput ? PIPE_BUF : undefined,
  );
  const logger = pino({ name: LOGGER_NAME, level }, destination);
  const base = accessLineBase(LOGGER_NAME);
  const accessLog: AccessLog = (reqId, method, url, status, ms) => {
    if (logger.isLevelEnabled('info')) {
      destination.write(formatAccessLine(base, Date.now(), reqId, method, url, status, ms));
    }
  };
  return { logger, accessLog, flushSync: () => destination.flushSync() };
}
