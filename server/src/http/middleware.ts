import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import type { Next, Request, Response } from 'restify';
import { BadRequestError, ForbiddenError, type HttpError, UnauthorizedError } from '../errors.ts';
import { comparableHost, hostAllowed, originHost, parseHostHeader } from './host.ts';
import { type RoutingUrl, routeRequestsBy, setRequestId } from './restify.ts';

const ECHOABLE_REQUEST_ID = /^[\x21-\x7e]{1,128}$/;

/**
 * Names the request: the caller's Request-Id when it sent a sane one, else a new UUID. Every answer
 * carries it (see http/send.ts).
 */
export function assignRequestId(req: Request): void {
  const sent = req.headers['request-id'];
  const id = typeof sent === 'string' && ECHOABLE_REQUEST_ID.test(sent) ? sent : randomUUID();
  setRequestId(req, id);
}

/** What restify would otherwise build the URL from (its getUrl() joins the Host header and the path). */
const ROUTING_ORIGIN = 'http://localhost';

/**
 * A target whose WHATWG pathname is the target itself: segments of characters the URL parser keeps as
 * they are, no query or fragment, no percent-escape, and no dot segment (`/.`). Every request of the
 * service's clients is one; anything else goes through the URL parser.
 */
const PLAIN_PATH = /^\/[\w\-.~!$&'()*+,;=:@/]*$/;

/** The routing URL of a plain path, without running the URL parser (a URL object per request, measured). */
class PlainPathUrl implements RoutingUrl {
  readonly search = '';
  readonly origin = ROUTING_ORIGIN;
  constructor(readonly pathname: string) {}
  get href(): string {
    return ROUTING_ORIGIN + this.pathname;
  }
}

/**
 * The URL the router and every handler see for a request target: built from the target alone (see
 * routeByTargetOnly); a plain path without the URL parser, since its pathname is the path itself.
 */
export function routingUrl(target: string): RoutingUrl {
  if (PLAIN_PATH.test(target) && !target.includes('/.')) return new PlainPathUrl(target);
  try {
    // Origin-form ("/path") is joined as text, so that "//x/y" stays a path; other forms resolve.
    return target.startsWith('/') ? new URL(ROUTING_ORIGIN + target) : new URL(target, ROUTING_ORIGIN);
  } catch {
    return new URL(ROUTING_ORIGIN); // only reached for a target checkTarget refused
  }
}

/**
 * Makes restify route every request by its target alone (routingUrl), set once for the process:
 * restify's own getUrl() prefixes the Host header, so `Host: x/UserService/users?` rerouted a request
 * and a Host the URL parser rejects threw outside any handler, ending the process.
 */
export function routeByTargetOnly(): void {
  routeRequestsBy(routingUrl);
}

/** A target no URL can be made of (e.g. `http://a%zz/`) is a 400 (see routeByTargetOnly for the routing). */
export function checkTarget(req: Request): BadRequestError | undefined {
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

/** What the Host check decided for one Host value (the same value always gets the same answer). */
type HostVerdict = 'ok' | 'invalid' | 'not_allowed';

/**
 * The checks every request passes before routing, cheapest first: a Host header (exactly one, valid,
 * and allowed), and for a change without a token, an Origin (when a browser sent one) of this host.
 * The verdict of the last Host value is kept: clients send the same one request after request.
 */
export function requestChecks(checks: RequestChecks): (req: Request) => HttpError | undefined {
  let lastHost: string | undefined;
  let lastVerdict: HostVerdict = 'ok';
  const hostVerdict = (host: string): HostVerdict => {
    if (host === lastHost) return lastVerdict;
    const parsed = parseHostHeader(host);
    const verdict: HostVerdict = !parsed
      ? 'invalid'
      : checks.allowedHosts && !hostAllowed(parsed, checks.allowedHosts)
        ? 'not_allowed'
        : 'ok';
    lastHost = host;
    lastVerdict = verdict;
    return verdict;
  };
  return (req) => {
    const host = req.headers.host;
    if (host) {
      const verdict = hostVerdict(host);
      if (verdict === 'invalid') return new BadRequestError('invalid_host');
      if (countHeader(req.rawHeaders, 'host') > 1)
        return new BadRequestError('invalid_host', 'the request has more than one Host header');
      if (verdict === 'not_allowed') return new ForbiddenError('host_not_allowed');
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
  };
}

function countHeader(rawHeaders: string[], lowerName: string): number {
  let count = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i] as string;
    if (name.length === lowerName.length && (name === lowerName || name.toLowerCase() === lowerName)) count++;
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
