/**
 * Sends one request of the explorer and records the exchange: when it was sent and answered (ms since
 * the run began), the request and the answer. No answer within the time limit (or a broken
 * connection) is an exchange without an answer: open-ended for the linearizability checker.
 */
import type { Observation } from './observation.ts';
import type { Request } from './operations.ts';

export interface Exchange {
  request: Request & { url: string };
  observation: Observation | undefined;
  /** Why no answer came (time-out, connection error). */
  error?: string;
  call: number;
  ret: number;
}

/** How long one request may take before it counts as unanswered. */
export const REQUEST_TIMEOUT_MS = 10_000;

const origin = performance.now();
export const now = () => performance.now() - origin;

export async function send(baseUrl: string, request: Request): Promise<Exchange> {
  const url = baseUrl.replace(/\/+$/, '') + request.path;
  const call = now();
  try {
    const response = await fetch(url, {
      method: request.method,
      headers: { 'User-Agent': 'user-service-conformance explore', ...request.headers },
      body: request.body,
      redirect: 'manual',
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    const body = request.method === 'HEAD' ? '' : await response.text();
    return {
      request: { ...request, url },
      observation: {
        status: response.status,
        contentType: response.headers.get('content-type') ?? undefined,
        body,
      },
      call,
      ret: now(),
    };
  } catch (err) {
    const cause = (err as { cause?: { message?: string } }).cause?.message;
    return {
      request: { ...request, url },
      observation: undefined,
      error: cause ?? (err as Error).message,
      call,
      ret: Infinity,
    };
  }
}
