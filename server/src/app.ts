import type { Server as HttpServer } from 'node:http';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import restify, { type Request, type Response, type Server } from 'restify';
import { registerHealthRoutes } from './health/routes.ts';
import { handleClientError, sendError } from './http/errors.ts';
import { assignRequestId, missingHostError, requireBearerToken } from './http/middleware.ts';
import type { AccessEntry, AccessLog } from './logging.ts';
import type { UserList } from './users/list.ts';
import { registerUserRoutes } from './users/routes.ts';
import type { UserStore } from './users/store.ts';

export interface AppDependencies {
  logger: Logger;
  /** One line per answered request; by default `logger.info(entry, 'request')`. */
  accessLog?: AccessLog | undefined;
  redis: Redis;
  users: UserStore;
  /** GET and HEAD of the list (owns the list document cache). */
  userList: UserList;
  /** Registers further resources (the JSON resources under /apps). */
  extraRoutes?: Array<(server: Server) => void>;
  apiToken?: string | undefined;
}

/** restify 12 has `first` handlers; @types/restify (written for restify 8) does not know them. */
type ServerWithFirst = Server & { first(handler: (req: Request, res: Response) => boolean): void };

/** Builds the HTTP application from its dependencies; it opens nothing itself. */
export function createApp(deps: AppDependencies): Server {
  const { logger } = deps;
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
    assignRequestId(req);
    const missingHost = missingHostError(req);
    if (!missingHost) return true;
    // Answered here, so restify will not emit 'after' for it: logged here too.
    sendError(req, res, missingHost, logger);
    logRequest(accessLog, req, res, 0);
    return false;
  });
  if (deps.apiToken) server.pre(requireBearerToken(deps.apiToken));

  registerHealthRoutes(server, deps.redis);
  registerUserRoutes(server, deps.users, deps.userList);
  for (const register of deps.extraRoutes ?? []) register(server);

  server.on('restifyError', (req: Request, res: Response, err: unknown, callback: () => void) => {
    sendError(req, res, err, logger);
    callback();
  });
  server.on('after', (req: Request, res: Response) =>
    logRequest(accessLog, req, res, Date.now() - req.time()),
  );
  return server;
}

function logRequest(accessLog: AccessLog, req: Request, res: Response, ms: number): void {
  accessLog({ reqId: req.id(), method: req.method ?? '', url: req.url ?? '', status: res.statusCode, ms });
}
