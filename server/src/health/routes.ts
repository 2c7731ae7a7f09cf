import type { Request, Response, Server } from 'restify';
import { ServiceUnavailableError } from '../errors.ts';
import { routeRead } from '../http/routes.ts';
import { sendJson } from '../http/send.ts';
import type { Readiness } from './readiness.ts';

/**
 * `/healthz`: the process answers (liveness). `/readyz`: it can serve reads and changes now (see
 * Readiness); 503 with the reason otherwise. HEAD works on both, as on every GET route.
 */
export function registerHealthRoutes(server: Server, readiness: Readiness): void {
  const live = async (_req: Request, res: Response) => sendJson(res, 200, { status: 'ok' });
  const ready = async (_req: Request, res: Response) => {
    const notReady = await readiness.check();
    if (notReady) throw new ServiceUnavailableError(`not ready: ${notReady}`);
    sendJson(res, 200, { status: 'ready' });
  };
  routeRead(server, '/healthz', live);
  routeRead(server, '/readyz', ready);
}
