import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import type { Next, Request, Response } from 'restify';
import { BadRequestError, UnauthorizedError } from '../errors.ts';

const ECHOABLE_REQUEST_ID = /^[\x21-\x7e]{1,128}$/;

/**
 * Names the request: the caller's Request-Id when it sent a sane one, else a new UUID. Every answer
 * carries it (see http/send.ts).
 */
export function assignRequestId(req: Request): void {
  const sent = req.headers['request-id'];
  const id = typeof sent === 'string' && ECHOABLE_REQUEST_ID.test(sent) ? sent : randomUUID();
  (req as unknown as { id(value: string): string }).id(id); // restify 12 accepts the id once
}

/** HTTP/1.1 requires a Host header. Node's own check answers without a body, so the app checks it. */
export function missingHostError(req: Request): BadRequestError | undefined {
  return req.httpVersion === '1.1' && !req.headers.host
    ? new BadRequestError('bad_request', 'an HTTP/1.1 request needs a Host header')
    : undefined;
}

const OPEN_PATHS = new Set(['/healthz', '/readyz']);

/**
 * Optional bearer-token check (API_TOKEN). OPTIONS and health checks stay open, and `alsoOpen` (e.g.
 * /metrics with METRICS_PUBLIC=1). Tokens are compared as SHA-256 digests with timingSafeEqual, so
 * neither content nor length leaks through timing.
 */
export function requireBearerToken(token: string, alsoOpen: readonly string[] = []) {
  const expected = createHash('sha256').update(token).digest();
  const open = new Set([...OPEN_PATHS, ...alsoOpen]);
  return (req: Request, _res: Response, next: Next): void => {
    if (req.method === 'OPTIONS' || open.has(req.getPath())) {
      next();
      return;
    }
    const match = /^Bearer ([^\s]+)$/i.exec(req.headers.authorization ?? ''); // the scheme is case-insensitive
    const given = createHash('sha256')
      .update(match?.[1] ?? '')
      .digest();
    next(match && timingSafeEqual(given, expected) ? undefined : new UnauthorizedError());
  };
}
