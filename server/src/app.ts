import type { Logger } from 'pino';
import restify, { type Request, type Response, type Server } from 'restify';
import { DEFAULTS } from './defaults.ts';
import { ExpectationFailedError } from './errors.ts';
import { handleClientError, sendError } from './http/error-answers.ts';
import { mountGroups, type ResourceGroup } from './http/groups.ts';
import {
  assignRequestId,
  checkTarget,
  requestChecks,
  requireBearerToken,
  routeByTargetOnly,
} from './http/middleware.ts';
import { addFirstHandler, leanHandlerChains, nodeServerOf, restifyLog } from './http/restify.ts';
import type { AccessLog } from './logging.ts';
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

/** Builds the HTTP application from its dependencies; it opens nothing itself. */
export function createApp(deps: AppDependencies): Server {
  const { logger } = deps;
  const requests = deps.metrics?.requests;
  const accessLog: AccessLog =
    deps.accessLog ??
    ((reqId, method, url, status, ms) => logger.info({ reqId, method, url, status, ms }, 'request'));
  const server = restify.createServer({
    name: '', // no Server banner
    log: restifyLog(logger),
    ignoreTrailingSlash: true,
    // No strictNext (nor onceNext): it wraps `next` in a once-guard at every handler of every request,
    // and no route calls `next`: they are async, restify calls it once when their promise settles. The
    // one handler that calls it, requireBearerToken, calls it once on each path.
    handleUncaughtExceptions: false,
  });
  leanHandlerChains(server);

  // Requests Node's parser rejects get an error body too. Slow clients cannot hold a socket: bounded
  // time for the headers and for the whole request, checked every second (Node's default is 30 s).
  const http = nodeServerOf(server);
  // The groups also say which error body a request no route took gets (see http/groups.ts).
  const representations = mountGroups(server, deps.groups);
  http.on('clientError', (err, socket) => handleClientError(err, socket, accessLog, representations.ofPath));
  http.headersTimeout = DEFAULTS.headersTimeoutMs;
  http.requestTimeout = DEFAULTS.requestTimeoutMs;
  http.keepAliveTimeout = DEFAULTS.keepAliveTimeoutMs;
  http.connectionsCheckingInterval = DEFAULTS.connectionsCheckingIntervalMs;
  http.requireHostHeader = false; // checked below, to answer with an error body
  // This service upgrades nothing. Restify listens to 'upgrade' (to re-emit it), so Node handed such
  // requests over as upgraded sockets nobody answered or closed. With no listener (every Node version)
  // and no upgrade accepted (Node 24.9+ asks shouldUpgradeCallback), they are ordinary requests.
  http.removeAllListeners('upgrade');
  http.shouldUpgradeCallback = () => false;

  // A `first` handler runs synchronously before restify's per-request setup: cheaper than a `pre`
  // handler (no deferred call, no handler timers) for what every request needs.
  // Every request is routed by its target alone (see routeByTargetOnly).
  routeByTargetOnly();
  const checkRequest = requestChecks({ allowedHosts: deps.allowedHosts, checkOrigin: !deps.apiToken });
  addFirstHandler(server, (req, res) => {
    requests?.started(req);
    assignRequestId(req);
    // A request that asked for another protocol gets its answer and then the connection is closed.
    if (req.headers.upgrade !== undefined) res.shouldKeepAlive = false;
    const refused = checkTarget(req) ?? checkRequest(req);
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
  accessLog(req.id(), req.method ?? '', req.url ?? '', res.statusCode, ms);
}
