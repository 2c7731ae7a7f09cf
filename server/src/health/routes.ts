import type { Redis } from 'ioredis';
import type { Request, Response, Server } from 'restify';
import { ServiceUnavailableError } from '../errors.ts';
import { routeRead } from '../http/routes.ts';
import { sendJson } from '../http/send.ts';

/** `/healthz`: the process answers. `/readyz`: it can also reach Redis. HEAD works on both, as on every GET route. */
export function registerHealthRoutes(server: Server, redis: Redis): void {
  const live = async (_req: Request, res: Response) => sendJson(res, 200, { status: 'ok' });
  const ready = async (_req: Request, res: Response) => {
    try {
      await redis.ping();
    } catch {
      throw new ServiceUnavailableError('Redis is not reachable');
    }
    sendJson(res, 200, { status: 'ready' });
  };
  routeRead(server, '/healthz', live);
  routeRead(server, '/readyz', ready);
}
