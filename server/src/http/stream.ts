import type { Response } from 'restify';
import { DEFAULTS } from '../defaults.ts';
import { markSent } from './restify.ts';
import { answerHead, writeAnswerHead } from './send.ts';

/** A client that takes nothing for this long is dropped (its list would otherwise hold a socket forever). */
const STALL_TIMEOUT_MS = DEFAULTS.streamStallTimeoutMs;

/**
 * A response body written piece by piece as it is produced (chunked transfer encoding), for documents
 * too large to build in memory. Backpressure: `write` resolves only once the socket has taken the piece,
 * so a slow reader makes the producer wait instead of piling up memory. A client that goes away ends it
 * (`write` answers false and the producer stops). `abort` ends the response without its final chunk,
 * so the client sees an incomplete body rather than a complete-looking one.
 */
export class StreamedBody {
  private gone = false;

  constructor(
    private readonly res: Response,
    private readonly stallTimeoutMs = STALL_TIMEOUT_MS,
  ) {
    res.once('close', () => {
      this.gone = true;
    });
  }

  /** Sends the status and headers: those of every answer, no Content-Length. */
  start(status: number, contentType: string, headers?: Record<string, string>): void {
    // `_sent` tells restify the answer is being written (as its own send would).
    markSent(this.res);
    writeAnswerHead(this.res, status, answerHead(this.res, contentType, headers));
  }

  /** True when the client has gone (or the response was aborted): nothing more will be delivered. */
  get abandoned(): boolean {
    return this.gone || this.res.destroyed;
  }

  /** Writes one piece; resolves once the socket can take more: true, or false when the client has gone. */
  write(piece: Buffer | string): Promise<boolean> {
    if (this.abandoned) return Promise.resolve(false);
    if (this.res.write(piece)) return Promise.resolve(true);
    return new Promise((resolve) => {
      const finish = (delivered: boolean) => {
        clearTimeout(timer);
        this.res.off('drain', onDrain);
        this.res.off('close', onClose);
        resolve(delivered);
      };
      const onDrain = () => finish(true);
      const onClose = () => finish(false);
      const timer = setTimeout(() => {
        this.res.destroy();
        finish(false);
      }, this.stallTimeoutMs);
      this.res.once('drain', onDrain);
      this.res.once('close', onClose);
    });
  }

  /** Ends the body normally (the final chunk). */
  end(): void {
    if (!this.abandoned) this.res.end();
  }

  /** Closes the connection without the final chunk: the client can tell the body is incomplete. */
  abort(): void {
    this.res.destroy();
  }
}
