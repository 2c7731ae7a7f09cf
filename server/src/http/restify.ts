import { type Server as HttpServer, IncomingMessage } from 'node:http';
import type { Logger } from 'pino';
import type { Request, Response, Server, ServerOptions } from 'restify';

/**
 * The one module that knows restify's internals: its private fields and the places where restify 12
 * differs from @types/restify (written for restify 8). Everything else uses these functions.
 */

/** restify 12 logs with pino; @types/restify still describes the bunyan logger of restify 8. */
export function restifyLog(logger: Logger): ServerOptions['log'] {
  return logger as unknown as ServerOptions['log'];
}

/** The node:http server under restify, with the settings @types/node's Server type lacks. */
export function nodeServerOf(server: Server): HttpServer & {
  connectionsCheckingInterval: number;
  requireHostHeader: boolean;
  shouldUpgradeCallback: () => boolean;
} {
  return server.server as never;
}

/** restify 12's `first` handlers (run synchronously before its per-request setup); unknown to @types/restify. */
export function addFirstHandler(server: Server, handler: (req: Request, res: Response) => boolean): void {
  (server as Server & { first(handler: (req: Request, res: Response) => boolean): void }).first(handler);
}

type Handler = (req: Request, res: Response) => Promise<unknown>;
const REGISTER = {
  GET: 'get',
  HEAD: 'head',
  PUT: 'put',
  POST: 'post',
  PATCH: 'patch',
  DELETE: 'del',
  OPTIONS: 'opts',
} as const;

export function registerRoute(
  server: Server,
  method: keyof typeof REGISTER,
  path: string,
  handler: Handler,
): void {
  server[REGISTER[method]](path, handler);
}

/** Every route restify registered, as method and restify path. */
export function registeredRoutes(server: Server): Array<{ method: string; path: string }> {
  const routes = (
    server.router as unknown as { getRoutes(): Record<string, { method: string; path: string }> }
  ).getRoutes();
  return Object.values(routes).map(({ method, path }) => ({ method, path }));
}

/** The route object that took the request (one per route: a key that needs no string built), if one did. */
export function routeOf(req: Request): object | undefined {
  return req.getRoute() as object | undefined;
}

/** The path of the route that took the request (`/apps/:app_id/domains`), if one did. */
export function routePathOf(req: Request): string | undefined {
  const route = req.getRoute() as { path?: unknown } | undefined;
  return typeof route?.path === 'string' ? route.path : undefined;
}

/** Names the request (`req.id()`); restify 12 accepts the id once. */
export function setRequestId(req: Request, id: string): void {
  (req as unknown as { id(value: string): string }).id(id);
}

/** Tells restify the answer is being written (as its own send would), so it sends nothing more. */
export function markSent(res: Response): void {
  (res as Response & { _sent: boolean })._sent = true;
}

/** What restify reads of getUrl(): the router the pathname, getQuery() the search, href() and absoluteUri() the rest. */
export type RoutingUrl = Pick<URL, 'pathname' | 'search' | 'href' | 'origin'>;

/** restify 12's getUrl() returns a WHATWG URL, cached in private fields; @types/restify says a legacy Url. */
type RoutedRequest = Omit<Request, 'getUrl'> & {
  getUrl(): RoutingUrl;
  _url?: RoutingUrl;
  _cacheURL?: string;
};

/**
 * Makes restify route every request by the URL `toUrl` builds from its target (instead of its
 * getUrl(), which joins the Host header and the path), cached where restify caches its own. Set once
 * on the request prototype restify itself extends (http.IncomingMessage's): nothing per request.
 */
export function routeRequestsBy(toUrl: (target: string) => RoutingUrl): void {
  function getUrl(this: RoutedRequest): RoutingUrl {
    const target = this.url ?? '/';
    if (this._cacheURL !== target || !this._url) {
      this._url = toUrl(target);
      this._cacheURL = target;
    }
    return this._url;
  }
  (IncomingMessage.prototype as unknown as RoutedRequest).getUrl = getUrl;
}
