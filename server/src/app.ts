import type { Server as HttpServer } from 'node:http';
import type { Logger } from 'pino';
import restify, { type Request, type Response, type Server } from 'restify';
import { ExpectationFailedError } from './errors.ts';
import { handleClientError, sendError } from './http/errors.ts';
import { mountGroups, type ResourceGroup } from './http/groups.ts';
import { assignRequestId, checkRequest, requireBearerToken, routeByTarget } from './http/middleware.ts';
import type { AccessEntry, AccessLog } from './logging.ts';
import type { RequestMetrics } from './metrics/requests.ts';

export interface AppDependencies {
  logger: Logger;
  /** One line per answered request; by default `logger.info(entry, 'request')`. */
  accessLog?: AccessLog | undefined;
  /** Every resource group the app serves, mounted in this order (see http/groups.ts). */
  groups: readonly ResourceGroup[];
  apiToken?: string | undefined;
  /** ALLOWED_HOSTS (see config.ts); undefined: any host name. */
  allowedHosts?: readonly string[] | undefined;
  /** Prometheus metrics (absent with METRICS=0): the request counters; `public`: /metrics needs no token. */
  metrics?: { requests: RequestMetrics; public: boolean } | undefined;
}

/** restify 12 has `first` handlers; @types/restify (written for restify 8) does not know them. */
type ServerWithFirst = Server & { first(handler: (req: Request, res: Response) => boolean): void };

/** Builds the HTTP application from its dependencies; it opens nothing itself. */
export function createApp(deps: AppDependencies): Server {
  const { logger } = deps;
  const requests = deps.metrics?.requests;
  const accessLog = deps.accessLog ?? ((entry: AccessEntry) => logger.info(entry, 'request'));
  const server = restify.createServer({
    name: '', // no Server banner
    // restify 12 logs with pino; @types/restify still describes the bunyan logger of restify 8.
    log: logger as unknown as restify.ServerOptions['log'],
    ignoreTrailingSlash: true,
    strictNext: true,
    handleUncaughtExceptions: false,
  });

  // Requests Node's parser rejects get an error body too. Slow clients cannot hold a socket: bounded
  // time for the headers and for the whole request, checked every second (Node's default is 30 s).
  const http = server.server as HttpServer & {
    connectionsCheckingInterval: number;
    requireHostHeader: boolean;
    shouldUpgradeCallback: () => boolean;
  };
  // The groups also say which error body a request no route took gets (see http/groups.ts).
  const representations = mountGroups(server, deps.groups);
  http.on('clientError', (err, socket) => handleClientError(err, socket, accessLog, representations.ofPath));
  http.headersTimeout = 10_000;
  http.requestTimeout = 30_000;
  http.keepAliveTimeout = 5_000;
  http.connectionsCheckingInterval = 1_000;
  http.requireHostHeader = false; // checked below, to answer with an error body
  // This service upgrades nothing. Restify listens to 'upgrade' (to re-emit it), so Node handed such
  // requests over as upgraded sockets nobody answered or closed. With no listener (every Node version)
  // and no upgrade accepted (Node 24.9+ asks shouldUpgradeCallback), they are ordinary requests.
  http.removeAllListeners('upgrade');
  http.shouldUpgradeCallback = () => false;

  // A `first` handler runs synchronously before restify's per-request setup: cheaper than a `pre`
  // handler (no deferred call, no handler timers) for what every request needs.
  const checks = { allowedHosts: deps.allowedHosts, checkOrigin: !deps.apiToken };
  (server as ServerWithFirst).first((req, res) => {
    requests?.started(req);
    assignRequestId(req);
    // A request that asked for another protocol gets its answer and then the connection is closed.
    if (req.headers.upgrade !== undefined) res.shouldKeepAlive = false;
    const refused = routeByTarget(req) ?? checkRequest(req, checks);
    if (!refused) return true;
    // Answered here, so restify will not emit 'after' for it: logged (and counted) here too.
    sendError(req, res, refused, logger, representations.ofPath(req.getPath()));
    logRequest(accessLog, req, res, 0);
    requests?.finished(req, res.statusCode);
    return false;
  });
  if (deps.apiToken) server.pre(requireBearerToken(deps.apiToken, deps.metrics?.public ? ['/metrics'] : []));
  // Node answers an unknown expectation itself, with no body; this answer has the usual error body.
  http.on('checkExpectation', (req: Request, res: Response) => {
    assignRequestId(req);
    routeByTarget(req);
    res.shouldKeepAlive = false;
    sendError(req, res, new ExpectationFailedError(), logger, representations.ofPath(req.getPath()));
    logRequest(accessLog, req, res, 0);
    requests?.finished(req, res.statusCode);
  });

  server.on('restifyError', (req: Request, res: Response, err: unknown, callback: () => void) => {
    // Raised by a group's route: its representation; else (404, 405, a refused token) the path's.
    sendError(req, res, err, logger, representations.ofRequest(req));
    callback();
  });
  server.on('after', (req: Request, res: Response) => {
    logRequest(accessLog, req, res, Date.now() - req.time());
    requests?.finished(req, res.statusCode);
  });
  return server;
}

function logRequest(accessLog: AccessLog, req: Request, res: Response, ms: number): void {
  accessLog({ reqId: req.id(), method: req.method ?? '', url: req.url ?? '', status: res.statusCode, ms });
}
