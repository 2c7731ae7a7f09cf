import type { Server as HttpServer } from 'node:http';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import restify, { type Request, type Response, type Server } from 'restify';
import { registerHealthRoutes } from './health/routes.ts';
import { handleClientError, sendError } from './http/errors.ts';
import { assignRequestId, missingHostError, requireBearerToken } from './http/middleware.ts';
import type { AccessEntry, AccessLog } from './logging.ts';
import type { RequestMetrics } from './metrics/requests.ts';
import { registerMetricsRoute } from './metrics/routes.ts';
import { registerOpenApiRoute } from './openapi/routes.ts';
import { registerUserRoutes } from './users/routes.ts';
import type { UserStore } from './users/store.ts';

export interface AppDependencies {
  logger: Logger;
  /** One line per answered request; by default `logger.info(entry, 'request')`. */
  accessLog?: AccessLog | undefined;
  redis: Redis;
  users: UserStore;
  /** Registers further resources (the JSON resources under /apps). */
  extraRoutes?: Array<(server: Server) => void>;
  apiToken?: string | undefined;
  /** Prometheus metrics (absent with METRICS=0): the request counters and what /metrics answers. */
  metrics?: { requests: RequestMetrics; scrape: () => Promise<string>; public: boolean } | undefined;
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
  };
  http.on('clientError', handleClientError);
  http.headersTimeout = 10_000;
  http.requestTimeout = 30_000;
  http.keepAliveTimeout = 5_000;
  http.connectionsCheckingInterval = 1_000;
  http.requireHostHeader = false; // checked below, to answer with an error body

  // A `first` handler runs synchronously before restify's per-request setup: cheaper than a `pre`
  // handler (no deferred call, no handler timers) for what every request needs.
  (server as ServerWithFirst).first((req, res) => {
    requests?.started(req);
    assignRequestId(req);
    const missingHost = missingHostError(req);
    if (!missingHost) return true;
    // Answered here, so restify will not emit 'after' for it: logged (and counted) here too.
    sendError(req, res, missingHost, logger);
    logRequest(accessLog, req, res, 0);
    requests?.finished(req, res.statusCode);
    return false;
  });
  if (deps.apiToken) server.pre(requireBearerToken(deps.apiToken, deps.metrics?.public ? ['/metrics'] : []));

  registerHealthRoutes(server, deps.redis);
  registerOpenApiRoute(server);
  if (deps.metrics) registerMetricsRoute(server, deps.metrics.scrape);
  registerUserRoutes(server, deps.users);
  for (const register of deps.extraRoutes ?? []) register(server);

  server.on('restifyError', (req: Request, res: Response, err: unknown, callback: () => void) => {
    sendError(req, res, err, logger);
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
