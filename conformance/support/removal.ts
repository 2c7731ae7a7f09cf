/**
 * B-6: a worker whose DELETE was accepted (202) is eventually no longer served. The one wait for it, the
 * rules' (support/judged-apps.ts awaitRemoval, APP-WRK-04) and the explorer's (explore/sequence.ts,
 * W-AWAIT): read until it is not served, every POLL_MS, for at most CONFORMANCE_ASYNC_TIMEOUT_MS (read
 * here, once), never for a fixed time. No Playwright and no model here: the explorer runs on its own too.
 */
import { setting } from './options.mjs';

/** Between two reads of a worker whose DELETE was accepted, in ms. */
export const POLL_MS = 100;

/** How long a worker whose DELETE was accepted may still be served (CONFORMANCE_ASYNC_TIMEOUT_MS). */
export const ASYNC_TIMEOUT_MS = Number(setting('CONFORMANCE_ASYNC_TIMEOUT_MS'));

/** Still served: a 2xx answer (none, `undefined`, is not one). */
export const served = (status: number | undefined): boolean =>
  status !== undefined && status >= 200 && status <= 299;

export interface Waited<T> {
  /** The last read. */
  last: T;
  /** ms from the first read to the end of the wait. */
  ms: number;
  /** `stop()` came first (the explorer's time was up): not judged. */
  cut?: true;
}

/**
 * Reads (`read`) until the answer is no longer served (`statusOf`: its status, undefined when none came),
 * for at most `timeoutMs`, every POLL_MS; `stop()` is asked before each wait between two reads.
 */
export async function untilRemoved<T>(
  read: () => Promise<T>,
  statusOf: (answer: T) => number | undefined,
  timeoutMs: number = ASYNC_TIMEOUT_MS,
  stop: () => boolean = () => false,
): Promise<Waited<T>> {
  const began = performance.now();
  const ms = () => Math.round(performance.now() - began);
  let last = await read();
  while (served(statusOf(last)) && performance.now() - began < timeoutMs) {
    if (stop()) return { last, ms: ms(), cut: true };
    await new Promise((r) => setTimeout(r, POLL_MS));
    last = await read();
  }
  return { last, ms: ms() };
}

/** The words of `worker removal | state-change | still served` (model/named-defects.ts), said by the rules or the explorer. */
export const stillServedText = (id: string, ms: number, waiter: 'the suite' | 'the explorer'): string =>
  `the worker ${id}, whose DELETE was accepted (202), is still served ${ms} ms later (B-6: it is eventually no longer served; CONFORMANCE_ASYNC_TIMEOUT_MS sets how long ${waiter} waits)`;
