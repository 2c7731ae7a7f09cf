import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import type { Next, Request, Response } from 'restify';
import { BadRequestError, ForbiddenError, type HttpError, UnauthorizedError } from '../errors.ts';
import { comparableHost, hostAllowed, originHost, parseHostHeader } from './host.ts';

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

/** What restify would otherwise build the URL from (its getUrl() joins the Host header and the path). */
const ROUTING_ORIGIN = 'http://localhost';

/** restify 12's getUrl() returns a WHATWG URL; @types/restify (restify 8) says a legacy Url. */
type RoutedRequest = Omit<Request, 'getUrl'> & { getUrl(): URL; _url?: URL; _cacheURL?: string };

/**
 * The request's URL as the router and every handler see it, built from the request target alone:
 * restify's own getUrl() prefixes the Host header, so `Host: x/UserService/users?` rerouted a request
 * and a Host the URL parser rejects threw outside any handler, ending the process.
 */
function pathOnlyUrl(this: RoutedRequest): URL {
  const target = this.url ?? '/';
  if (this._cacheURL !== target || !this._url) {
    let url: URL;
    try {
      // Origin-form ("/path") is joined as text, so that "//x/y" stays a path; other forms resolve.
      url = target.startsWith('/') ? new URL(ROUTING_ORIGIN + target) : new URL(target, ROUTING_ORIGIN);
    } catch {
      url = new URL(ROUTING_ORIGIN); // only reached for a target routeByTarget refused
    }
    this._url = url;
    this._cacheURL = target;
  }
  return this._url;
}

/** Routes the request by its target only; a target no URL can be made of (e.g. `http://a%zz/`) is a 400. */
export function routeByTarget(req: Request): BadRequestError | undefined {
  (req as unknown as RoutedRequest).getUrl = pathOnlyUrl;
  const target = req.url ?? '';
  if (target.startsWith('/') || target === '*') return undefined;
  try {
    new URL(target, ROUTING_ORIGIN);
    return undefined;
  } catch {
    return new BadRequestError('bad_request', 'the request target is not a valid URL');
  }
}

export interface RequestChecks {
  /** ALLOWED_HOSTS; undefined: any host name. */
  allowedHosts: readonly string[] | undefined;
  /** With no token, a browser page of another origin must not be able to change data. */
  checkOrigin: boolean;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The checks every request passes before routing, cheapest first: a Host header (exactly one, valid,
 * and allowed), and for a change without a token, an Origin (when a browser sent one) of this host.
 */
export function checkRequest(req: Request, checks: RequestChecks): HttpError | undefined {
  const host = req.headers.host;
  if (host) {
    const parsed = parseHostHeader(host);
    if (!parsed) return new BadRequestError('invalid_host');
    if (countHeader(req.rawHeaders, 'host') > 1)
      return new BadRequestError('invalid_host', 'the request has more than one Host header');
    if (checks.allowedHosts && !hostAllowed(parsed, checks.allowedHosts)) {
      return new ForbiddenError('host_not_allowed');
    }
  } else if (req.httpVersion === '1.1') {
    // Node's own check answers without a body, so the app checks it (HTTP/1.0 may leave it out).
    return new BadRequestError('bad_request', 'an HTTP/1.1 request needs a Host header');
  }
  const origin = req.headers.origin;
  if (checks.checkOrigin && origin !== undefined && !SAFE_METHODS.has(req.method ?? '')) {
    if (host === undefined || originHost(origin) !== comparableHost(host)) {
      return new ForbiddenError('cross_origin');
    }
  }
  return undefined;
}

function countHeader(rawHeaders: string[], lowerName: string): number {
  let count = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    if (rawHeaders[i]?.length === lowerName.length && rawHeaders[i]?.toLowerCase() === lowerName) count++;
  }
  return count;
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
