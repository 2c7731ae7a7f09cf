/**
 * Sends one request of the explorer and records the exchange: when it was sent and answered (ms since
 * the run began), the request and the answer. No answer within the time limit (or a broken
 * connection) is an exchange without an answer: open-ended for the linearizability checker.
 *
 * The body is kept as it came (decoded as UTF-8 with a BOM kept: equal to the spec's text means the
 * same bytes). HEAD goes over a raw socket (support/raw.ts, as USR-HEAD-01 reads it): `fetch` reads no
 * body after a HEAD answer, so the bytes a server sends there would go unseen.
 */
import { validUtf8 } from '../model/index.ts';
import { type ExchangeRequest, REQUEST_TIMEOUT_MS } from '../support/exchange.ts';
import { rawExchange, rawStatus } from '../support/raw.ts';
import { SAFE_METHODS, transportFailure } from '../support/transport.ts';
import type { Observation } from './observation.ts';
import type { Request } from './operations.ts';

/**
 * An exchange (the request as support/exchange.ts keeps it, with its path) timed for the
 * linearizability checker, with the answer as the model reads it: the whole body, no headers but its type.
 */
export interface TimedExchange {
  request: Request & ExchangeRequest;
  observation: Observation | undefined;
  /** Why no answer came (time-out, connection error). */
  error?: string;
  call: number;
  ret: number;
}

/**
 * How long a HEAD answer's connection may stay quiet before what came counts as all of it (a server
 * that honours `Connection: close` ends it at once: this is paid only by one that does not).
 */
const HEAD_QUIET_MS = 200;

const origin = performance.now();
export const now = () => performance.now() - origin;

const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

/** A body as the model reads it (model/observe.ts Answer): decoded, and marked when not valid UTF-8. */
const decoded = (bytes: Uint8Array): { body: string; notUtf8?: true } => ({
  body: decoder.decode(bytes),
  ...(validUtf8(bytes) ? {} : { notUtf8: true as const }),
});

async function head(url: string, request: Request): Promise<Observation> {
  const { origin: base, pathname, search } = new URL(url);
  const reply = await rawExchange(base, 'HEAD', pathname + search, {
    quietMs: HEAD_QUIET_MS,
    timeoutMs: REQUEST_TIMEOUT_MS,
    headers: { 'User-Agent': 'user-service-conformance explore', ...request.headers },
  });
  return {
    status: rawStatus(reply),
    contentType: reply.headers['content-type'],
    ...decoded(reply.extra),
  };
}

export async function send(baseUrl: string, request: Request): Promise<TimedExchange> {
  const call = now();
  const first = await attempt(baseUrl, request, call);
  // A connection the implementation closed, idle, as the request went out on it: a safe request is
  // sent again, once, as the rules' client does (support/http.ts); its interval starts at the first
  // call, which only widens it. A write stays unanswered: it may have taken effect.
  return first.exchange.observation || !SAFE_METHODS.has(request.method) || !first.closed
    ? first.exchange
    : (await attempt(baseUrl, request, call)).exchange;
}

async function attempt(
  baseUrl: string,
  request: Request,
  call: number,
): Promise<{ exchange: TimedExchange; closed: boolean }> {
  const url = baseUrl.replace(/\/+$/, '') + request.path;
  try {
    if (request.method === 'HEAD') {
      const observation = await head(url, request);
      return { exchange: { request: { ...request, url }, observation, call, ret: now() }, closed: false };
    }
    const response = await fetch(url, {
      method: request.method,
      headers: { 'User-Agent': 'user-service-conformance explore', ...request.headers },
      body: request.body,
      redirect: 'manual',
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    const exchange: TimedExchange = {
      request: { ...request, url },
      observation: {
        status: response.status,
        contentType: response.headers.get('content-type') ?? undefined,
        ...decoded(new Uint8Array(await response.arrayBuffer())),
      },
      call,
      ret: now(),
    };
    return { exchange, closed: false };
  } catch (err) {
    const cause = (err as { cause?: { message?: string } }).cause?.message;
    const exchange: TimedExchange = {
      request: { ...request, url },
      observation: undefined,
      error: cause ?? (err as Error).message,
      call,
      ret: Infinity,
    };
    const closed = transportFailure(cause ?? err, request.method, REQUEST_TIMEOUT_MS)?.kind;
    return { exchange, closed: closed === 'closed before answering' };
  }
}
